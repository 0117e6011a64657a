import Faultline
import Foundation

/// How requests ended, handed from the capture middlewares to their reporter without waiting for it: appended under a
/// lock on each request's path, and taken by the reporter, in order, before anything that reads or changes its scope.
/// Waiting for the reporter's actor instead cost every request a thread wake-up, 5 % of a loopback GET
/// (`scripts/bench client-overhead --capturing`).
final class OutcomeHandOff: @unchecked Sendable {
    /// An outcome with what the request's task knew: its span, the client's base URL, the request's user
    /// (``RequestUser/current``) and when it ended.
    struct Entry: Sendable {
        let outcome: RequestOutcome
        let span: RequestSpan?
        let baseURL: URL
        let user: UserContext?
        let date: Date
    }

    /// Entries past which the reporter is asked to take them, so that they stay few when nothing reads the scope.
    static let limit = 256
    /// How long the first entry after a take waits at most before the reporter takes it.
    static let latency = Duration.seconds(1)

    // Safe to share: `entries` is the only mutable state, and every access to it holds `lock`, never across an `await`.
    private let lock = NSLock()
    private var entries: [Entry] = []

    /// Appends `entry`; returns how many wait now.
    func append(_ entry: Entry) -> Int {
        lock.withLock {
            entries.append(entry)
            return entries.count
        }
    }

    /// The entries waiting, oldest first, which no longer wait.
    func take() -> [Entry] {
        lock.withLock {
            defer { entries.removeAll(keepingCapacity: true) }
            return entries
        }
    }
}
