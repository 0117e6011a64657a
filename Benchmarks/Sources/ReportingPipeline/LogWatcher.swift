import Foundation

/// Notes when a file changes size, from a dedicated thread that polls it (`stat`, no sleep) while armed: what an
/// outside observer sees of an event reaching the log, without taking a thread of the pool the reporter runs on.
final class LogWatcher: @unchecked Sendable {
    // Everything below is guarded by `condition`.
    private let condition = NSCondition()
    private var watch: (path: String, size: Int)?
    private var changedAt: ContinuousClock.Instant?
    private var waiter: CheckedContinuation<ContinuousClock.Instant, Never>?
    private var isStopped = false

    /// Starts the polling thread, idle until armed.
    init() {
        Thread { [self] in pollUntilStopped() }.start()
    }

    /// Starts polling `path` for a size other than `size`.
    func arm(_ path: String, size: Int) {
        condition.lock()
        watch = (path, size)
        changedAt = nil
        condition.signal()
        condition.unlock()
    }

    /// When the armed file changed size (or 1 second after arming, when it did not).
    func change() async -> ContinuousClock.Instant {
        await withCheckedContinuation { continuation in
            condition.lock()
            defer { condition.unlock() }
            if let changedAt {
                continuation.resume(returning: changedAt)
            } else {
                waiter = continuation
            }
        }
    }

    /// Ends the polling thread.
    func stop() {
        condition.lock()
        isStopped = true
        condition.signal()
        condition.unlock()
    }

    /// The size of the file at `path`, -1 when it is missing.
    static func size(_ path: String) -> Int {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : -1
    }

    private func pollUntilStopped() {
        let clock = ContinuousClock()
        while true {
            condition.lock()
            while watch == nil, !isStopped { condition.wait() }
            guard let (path, size) = watch, !isStopped else {
                condition.unlock()
                return
            }
            condition.unlock()
            let deadline = clock.now + .seconds(1)
            while Self.size(path) == size, clock.now < deadline {}
            let instant = clock.now
            condition.lock()
            watch = nil
            changedAt = instant
            let waiter = waiter
            self.waiter = nil
            condition.unlock()
            waiter?.resume(returning: instant)
        }
    }
}
