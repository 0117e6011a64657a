import FaultlineRecords
import Synchronization

/// A clock that moves only when a test advances it: a sleep waits until ``advance(by:)`` reaches its deadline (or
/// returns at once when the clock already stands past it), so code whose timers run on it waits exactly as long as
/// the test says, however slow the machine. Unlike ``FakeClock``, a sleep never moves it.
package final class ManualClock: Clock, Sendable {
    package typealias Instant = ElapsedClock.Instant

    /// A sleep that waits for its deadline.
    private struct Sleeper {
        let deadline: Duration
        let continuation: CheckedContinuation<Void, any Error>
    }

    private let state = Mutex<(now: Duration, sleepers: [Int: Sleeper], nextID: Int)>((.zero, [:], 0))

    package init() {}

    /// Ends the sleeps still waiting, cancelled, when the test lets go of it.
    deinit {
        let sleepers = state.withLock { $0.sleepers.values }
        for sleeper in sleepers { sleeper.continuation.resume(throwing: CancellationError()) }
    }

    package var now: Instant { Instant(offset: state.withLock { $0.now }) }
    package var minimumResolution: Duration { .zero }

    /// How many sleeps wait for the clock to move.
    package var waitingSleeps: Int { state.withLock { $0.sleepers.count } }

    /// Moves it forward by `duration`, ending every sleep whose deadline it reaches.
    package func advance(by duration: Duration) {
        let due = state.withLock { state in
            state.now += duration
            let due = state.sleepers.filter { $0.value.deadline <= state.now }
            for id in due.keys { state.sleepers[id] = nil }
            return due.values.map(\.continuation)
        }
        for continuation in due { continuation.resume() }
    }

    package func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = state.withLock { state in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if deadline.offset <= state.now { return .success(()) }
                    state.sleepers[id] = Sleeper(deadline: deadline.offset, continuation: continuation)
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let cancelled = state.withLock { $0.sleepers.removeValue(forKey: id) }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }
}
