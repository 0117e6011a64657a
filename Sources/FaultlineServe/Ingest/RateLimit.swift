import FaultlineRecords

/// An optional limit on the events one key may send per minute: a fixed window of 60 seconds. A request whose events
/// would pass the limit is refused whole with 429, `Retry-After` and `X-Sentry-Rate-Limits`, so that an SDK keeps
/// its events and waits instead of losing some of them.
struct RateLimit: Sendable {
    let eventsPerMinute: Int
    private var windowStart: ElapsedClock.Instant?
    private var admitted = 0

    init(eventsPerMinute: Int) {
        self.eventsPerMinute = eventsPerMinute
    }

    /// Admits `events` at `now`, or returns how long until the window ends.
    mutating func admit(_ events: Int, at now: ElapsedClock.Instant) -> Duration? {
        if let start = windowStart, now - start < .seconds(60) {
            guard admitted + events <= eventsPerMinute else { return start + .seconds(60) - now }
        } else {
            windowStart = now
            admitted = 0
        }
        admitted += events
        return nil
    }
}
