/// Any clock measured as the time elapsed since the moment this one was made from it, so that an actor can keep
/// instants of a clock it is handed (`any Clock<Duration>` has no instant type to store): the uploader runs on a
/// `ContinuousClock`, and its tests hand it one that moves only when they advance it.
package struct ElapsedClock: Clock {
    /// A moment of the clock: the time elapsed since its start.
    package struct Instant: InstantProtocol {
        /// The time since the clock's start.
        package var offset: Duration

        /// The moment `offset` after the clock's start.
        package init(offset: Duration) {
            self.offset = offset
        }

        package func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        package func duration(to other: Instant) -> Duration { other.offset - offset }
        package static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
        package static func + (instant: Instant, duration: Duration) -> Instant { instant.advanced(by: duration) }
        package static func - (later: Instant, earlier: Instant) -> Duration { earlier.duration(to: later) }
    }

    package let minimumResolution: Duration
    private let elapsed: @Sendable () -> Duration
    private let sleepUntil: @Sendable (_ offset: Duration, _ tolerance: Duration?) async throws -> Void

    /// `clock`, measured from now.
    package init<Base: Clock<Duration>>(_ clock: Base) {
        let start = clock.now
        minimumResolution = clock.minimumResolution
        elapsed = { start.duration(to: clock.now) }
        sleepUntil = { offset, tolerance in
            try await clock.sleep(until: start.advanced(by: offset), tolerance: tolerance)
        }
    }

    /// A `ContinuousClock`, measured from now.
    package static var continuous: ElapsedClock { ElapsedClock(ContinuousClock()) }

    package var now: Instant { Instant(offset: elapsed()) }

    package func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try await sleepUntil(deadline.offset, tolerance)
    }
}
