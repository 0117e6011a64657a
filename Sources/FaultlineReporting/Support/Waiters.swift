import Foundation

/// Callers of an actor waiting, each for at most its own timeout, until the actor says their target is reached.
///
/// The actor adds a waiter from inside `withCheckedContinuation`, with a task that calls ``timeOut(_:)`` when the
/// timeout passes, and calls ``resume(where:)`` whenever its state changes.
struct Waiters<Target> {
    private struct Waiter {
        let target: Target
        let continuation: CheckedContinuation<Void, Never>
        let timeout: Task<Void, Never>
    }

    private var waiting: [UUID: Waiter] = [:]

    mutating func add(
        _ id: UUID, target: Target, continuation: CheckedContinuation<Void, Never>, timeout: Task<Void, Never>
    ) {
        waiting[id] = Waiter(target: target, continuation: continuation, timeout: timeout)
    }

    /// Resumes the waiter `id`, whose timeout passed, if it is still waiting.
    mutating func timeOut(_ id: UUID) {
        waiting.removeValue(forKey: id)?.continuation.resume()
    }

    /// Resumes the waiters whose target `isReached`.
    mutating func resume(where isReached: (Target) -> Bool) {
        for (id, waiter) in waiting where isReached(waiter.target) {
            waiter.timeout.cancel()
            waiter.continuation.resume()
            waiting.removeValue(forKey: id)
        }
    }
}
