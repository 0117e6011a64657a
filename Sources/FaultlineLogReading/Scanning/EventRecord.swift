/// What triage needs of one logged event, read from its JSON line by ``EventRecord/init(line:)``: when, how bad,
/// which group, which user, and the tags the pipeline sets on every event (`error.kind`, `http.route`,
/// `http.status_code`, `server.code`, …).
public struct EventRecord: Hashable, Sendable {
    /// The 32-hex event id.
    public var eventID: String
    /// Seconds since 1970, UTC.
    public var timestamp: Double
    /// `debug`, `info`, `warning`, `error` or `fatal`.
    public var level: String?
    public var release: String?
    public var environment: String?
    /// The message of a message event: `logentry`'s (or `message`'s) formatted text, else its template with its
    /// parameters put in.
    public var message: String?
    /// The exception's type and value, such as `ServerFailure` and `POST /boletos: 409 …`.
    public var exceptionType: String?
    public var exceptionValue: String?
    /// The fingerprint the event sent; empty when it sent none.
    public var fingerprint: [String] = []
    /// What the event is grouped by: its ``fingerprint``, with Sentry's `{{ default }}` standing for the default
    /// grouping, or the default grouping alone when it sent none (its stack trace's in-app frames, else its
    /// exception, else its message, as ``init(line:)`` documents).
    public var grouping: [String] = []
    /// Every tag, with numbers as their text.
    public var tags: [String: String] = [:]
    /// The user's id, or their email or username when there is no id.
    public var user: String?
    /// The user's email and username, when the event gives them (``user`` may be either, when there is no id).
    public var userEmail: String?
    public var userName: String?
    /// The user's segment.
    public var userSegment: String?
    /// Fields triage reads that had an unexpected type and were left out, such as a numeric `release`.
    public var ignoredFields = 0
    /// Events of its fingerprint that the app's reporter suppressed since the previous one it kept, from the
    /// `faultline.suppressed` tag (`Reporter.FingerprintLimit`); 0 for most events.
    public var suppressedEvents = 0

    /// The events triage counts it for: itself and the ``suppressedEvents`` it carries, so that an issue's counts
    /// and rates are those of the error storm, not of the events its reporter kept.
    public var eventCount: Int { 1 + suppressedEvents }

    /// What the event says happened, as Sentry titles it: an exception's type and value (`ZeroDivisionError:
    /// division by zero`), else the message. Faultline's own events name their kind in `error.kind`, so their title
    /// is the exception's value alone (`POST /travels: HTTP 400 code 40013 …`).
    public var title: String {
        switch (exceptionType, exceptionValue) {
        case (let type?, let value?): tags["error.kind"] == nil ? "\(type): \(value)" : value
        case (nil, let value?): value
        case (let type?, nil): type
        case (nil, nil): message ?? "(no message)"
        }
    }

    /// The kind of failure: the `error.kind` tag Faultline sets (`server`, `transport`, `decoding`,
    /// `session_expired`, `other`, `message`), else, for other SDKs' events, `error` for an exception and `message`
    /// for a message without one (`capture_message`), else `other`.
    public var kind: String {
        if let kind = tags["error.kind"] { return kind }
        if exceptionType != nil || exceptionValue != nil { return "error" }
        return message != nil ? "message" : "other"
    }

    /// Creates a record.
    public init(eventID: String, timestamp: Double) {
        self.eventID = eventID
        self.timestamp = timestamp
    }
}
