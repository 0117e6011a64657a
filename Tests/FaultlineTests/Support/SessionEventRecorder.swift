import Faultline

/// Collects session events in the background until stopped.
final class SessionEventRecorder: Sendable {
    private let task: Task<[SessionEvent], Never>

    init(_ events: AsyncStream<SessionEvent>) {
        task = Task {
            var received: [SessionEvent] = []
            for await event in events { received.append(event) }
            return received
        }
    }

    /// Stops recording after a short grace period for events still in flight, and returns what arrived.
    func stop() async -> [SessionEvent] {
        try? await Task.sleep(for: .milliseconds(100))
        task.cancel()
        return await task.value
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
