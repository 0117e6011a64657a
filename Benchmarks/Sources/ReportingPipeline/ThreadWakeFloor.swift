import Foundation

/// The floor under every hand-off to a parked thread: signalling the condition variable a dedicated thread waits on
/// (`NSCondition`, a pthread mutex and condition variable), and nothing else. Beside ``QueueFloor`` it shows what the
/// operating system alone charges for waking a thread, whatever runs on top of it.
final class ThreadWakeFloor: @unchecked Sendable {
    // Everything below is guarded by `condition`.
    private let condition = NSCondition()
    private var signalled = 0
    private var taken = 0
    private var isStopped = false
    private var waiter: (count: Int, continuation: CheckedContinuation<Void, Never>)?

    /// Starts the thread that waits for signals.
    init() {
        Thread { [self] in consumeUntilStopped() }.start()
    }

    /// Wakes the waiting thread.
    func signal() {
        condition.lock()
        signalled += 1
        condition.signal()
        condition.unlock()
    }

    /// The signals the thread has taken in all.
    var consumed: Int {
        condition.lock()
        defer { condition.unlock() }
        return taken
    }

    /// Returns once the thread has taken `count` signals in all.
    func waitUntilConsumed(_ count: Int) async {
        await withCheckedContinuation { continuation in
            condition.lock()
            defer { condition.unlock() }
            if taken >= count {
                continuation.resume()
            } else {
                waiter = (count, continuation)
            }
        }
    }

    /// Ends the waiting thread.
    func stop() {
        condition.lock()
        isStopped = true
        condition.signal()
        condition.unlock()
    }

    private func consumeUntilStopped() {
        condition.lock()
        defer { condition.unlock() }
        while !isStopped {
            while signalled == taken, !isStopped { condition.wait() }
            taken = signalled
            if let waiter, taken >= waiter.count {
                self.waiter = nil
                waiter.continuation.resume()
            }
        }
    }
}
