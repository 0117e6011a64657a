import FaultlineRecords
import Foundation
import Synchronization

/// A clock that stands still until a test moves it: its sleeps return at once and advance it by what they asked,
/// recording each delay (so retry tests run fast and assert on the exact delays), and ``advance(by:)`` moves it.
/// ``date`` is the wall-clock time it stands at, for code that takes a `() -> Date`.
package final class FakeClock: Clock, Sendable {
    /// The instant of the clocks a reporter and its uploader run on, so that either takes this one.
    package typealias Instant = ElapsedClock.Instant

    private let start: Date
    private let state = Mutex<(now: Duration, sleeps: [Duration])>((.zero, []))

    /// A clock at `start` (the epoch by default).
    package init(_ start: Date = Date(timeIntervalSince1970: 0)) {
        self.start = start
    }

    package var now: Instant { Instant(offset: state.withLock { $0.now }) }
    package var minimumResolution: Duration { .zero }

    /// The delays slept so far, in order.
    package var sleeps: [Duration] { state.withLock { $0.sleeps } }

    /// The wall-clock time it stands at: its start, advanced by the sleeps and ``advance(by:)`` so far.
    package var date: Date {
        let offset = state.withLock { $0.now }
        return start + Double(offset.components.seconds) + Double(offset.components.attoseconds) / 1e18
    }

    /// Moves it forward by `duration`, without recording a sleep.
    package func advance(by duration: Duration) {
        state.withLock { $0.now += duration }
    }

    package func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        state.withLock { state in
            state.sleeps.append(deadline.offset - state.now)
            state.now = max(state.now, deadline.offset)
        }
    }
}
