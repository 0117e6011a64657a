import FaultlineRecords

extension Reporter {
    /// At most ``events`` events of one fingerprint in each ``window``: the rest of an error storm is counted, not
    /// written or sent.
    ///
    /// A fingerprint's window opens with the first event of it that is kept and lasts ``window``; the first ``events``
    /// events in it are kept, and the others are suppressed: counted in ``Reporter/Statistics/suppressedByFingerprintLimit``
    /// and in client reports as `event_processor` (the reason sentry-python's Dedupe integration reports). The next
    /// event of that fingerprint that is kept carries their number in the ``suppressedCountTag`` tag, so that
    /// `faultline summary`, `issues`, `show` and `incident` count them in the events, and Sentry shows them
    /// on the event.
    ///
    /// The carried events are dated by the event that carries them, one window late at most while the storm lasts;
    /// those after a fingerprint's last kept event are carried by its next event, whenever that comes, and are in the
    /// statistics and client reports meanwhile. They take the carrying event's user, route and release in the CLI's
    /// breakdowns.
    public struct FingerprintLimit: Hashable, Sendable {
        /// The tag that carries how many events of the fingerprint were suppressed since the previous one that was
        /// kept, such as `"1280"`; absent when none were.
        public static let suppressedCountTag = EventRecord.suppressedCountTag

        /// The most events of one fingerprint kept in a window; at least 1.
        public var events: Int
        /// How long a window lasts.
        public var window: Duration

        /// At most `events` events of one fingerprint per `window` (10 per minute by default).
        public init(events: Int = 10, per window: Duration = .seconds(60)) {
            self.events = max(1, events)
            self.window = window
        }
    }
}
