import Foundation

/// How many times slower than a plain debug build the code under test runs: `FAULTLINE_TEST_SLOWDOWN`, which
/// `scripts/sanitize` sets (a sanitizer slows code 5 to 15 times), else 1. Every wait of the suite allows for it.
package let slowdown =
    ProcessInfo.processInfo.environment["FAULTLINE_TEST_SLOWDOWN"].flatMap(Int.init).map {
        max(1, $0)
    } ?? 1

/// How long a test waits for what must happen (a flush, an answer processed, a peer started): CI runs every suite at
/// once on 2 cores, and a loaded run has stalled them all for 5–12 s. ``eventually(within:_:)`` returns as soon as
/// its condition holds, so only a failure waits this long.
package let patience = slowed(.seconds(60))

/// `duration`, for a wait of that long in a plain build, allowing for the ``slowdown`` of this run.
package func slowed(_ duration: Duration) -> Duration { duration * slowdown }

/// Whether `condition` holds within `timeout` (``patience`` by default), checked at once, then every 10 ms growing
/// to every 200 ms, and once more after the deadline (a test stalled past it by a loaded machine still sees the
/// state it waited for). For states a test waits for without guessing how long a loaded machine takes to reach them.
package func eventually(
    within timeout: Duration = patience, _ condition: () async throws -> Bool
) async throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    var interval = Duration.milliseconds(10)
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: interval)
        interval = min(interval * 2, .milliseconds(200))
    }
    return try await condition()
}

/// A state a test waited for that did not come.
package struct TimedOut: Error, CustomStringConvertible {
    package let description: String

    package init(description: String) {
        self.description = description
    }
}

/// Returns once `condition` holds; throws ``TimedOut`` naming `what` when it does not within `timeout` (``patience``
/// by default), for a test that cannot go on without it.
package func wait(
    for what: String, within timeout: Duration = patience, until condition: () async throws -> Bool
) async throws {
    guard try await eventually(within: timeout, condition) else {
        throw TimedOut(description: "\(what) did not happen within \(timeout)")
    }
}

/// Returns once `condition` holds, for work whose length a loaded machine decides (a backlog of a thousand deliveries):
/// throws ``TimedOut`` naming `what` only when `progress` (what was done so far) stays the same for `stall`
/// (``patience`` by default), which is a hang, never for being slow while it moves.
package func wait(
    for what: String, progressing progress: () async throws -> Int, stall: Duration = patience,
    until condition: () async throws -> Bool
) async throws {
    var done = try await progress()
    var movedAt = ContinuousClock.now
    var interval = Duration.milliseconds(10)
    while try await !condition() {
        let now = try await progress()
        if now != done {
            done = now
            movedAt = .now
        } else if ContinuousClock.now - movedAt > stall {
            guard try await condition() else {
                throw TimedOut(description: "\(what) stalled at \(now) for \(stall)")
            }
            return
        }
        try await Task.sleep(for: interval)
        interval = min(interval * 2, .milliseconds(200))
    }
}
