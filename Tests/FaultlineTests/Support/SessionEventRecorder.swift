import Faultline
import Synchronization
import TestSupport

/// Collects session events in the background until stopped.
final class SessionEventRecorder: Sendable {
    private final class Received: Sendable {
        let events = Mutex<[SessionEvent]>([])
    }

    private let received = Received()
    private let task: Task<Void, Never>

    init(_ events: AsyncStream<SessionEvent>) {
        let received = received
        task = Task {
            for await event in events { received.events.withLock { $0.append(event) } }
        }
    }

    /// Stops recording once what arrived satisfies `expected` (or ``patience`` has passed), and returns what arrived.
    func stop(once expected: ([SessionEvent]) -> Bool) async throws -> [SessionEvent] {
        _ = try await eventually { expected(received.events.withLock { $0 }) }
        task.cancel()
        return received.events.withLock { $0 }
    }
}

extension SessionEvent {
    var isExpired: Bool {
        if case .expired = self { return true }
        return false
    }

    var isRefreshed: Bool {
        if case .refreshed = self { return true }
        return false
    }
}
