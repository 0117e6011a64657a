/// What triage needs of one logged event, read from its JSON line by ``EventScan``: when, how bad, which group,
/// which user, and the tags the pipeline sets on every event (`error.kind`, `http.route`, `http.status_code`,
/// `server.code`, …).
package struct EventRecord: Hashable, Sendable {
    /// The 32-hex event id.
    package var eventID: String
    /// Seconds since 1970, UTC.
    package var timestamp: Double
    /// `debug`, `info`, `warning`, `error` or `fatal`.
    package var level: String?
    package var release: String?
    package var environment: String?
    /// The message of a message event: `logentry`'s (or `message`'s) formatted text, else its template with its
    /// parameters put in.
    package var message: String?
    /// The exception's type and value, such as `ServerFailure` and `POST /boletos: 409 …`.
    package var exceptionType: String?
    package var exceptionValue: String?
    /// The fingerprint the event sent; empty when it sent none.
    package var fingerprint: [String] = []
    /// What the event is grouped by: its ``fingerprint``, with Sentry's `{{ default }}` standing for the default
    /// grouping, or the default grouping alone when it sent none (its stack trace's in-app frames, else its
    /// exception, else its message), filled by the log reader's grouping.
    package var grouping: [String] = []
    /// Every tag, with numbers as their text.
    package var tags: [String: String] = [:]
    /// The user's id, or their email or username when there is no id.
    package var user: String?
    /// The user's email and username, when the event gives them (``user`` may be either, when there is no id).
    package var userEmail: String?
    package var userName: String?
    /// The user's segment.
    package var userSegment: String?
    /// Fields triage reads that had an unexpected type and were left out, such as a numeric `release`.
    package var ignoredFields = 0
    /// Events of its fingerprint that the app's reporter suppressed since the previous one it kept, from the
    /// ``suppressedCountTag`` (`Reporter.FingerprintLimit`); 0 for most events.
    package var suppressedEvents = 0

    /// The tag of a kept event that counts the events of its fingerprint suppressed since the previous one kept.
    package static let suppressedCountTag = "faultline.suppressed"

    /// The events triage counts it for: itself and the ``suppressedEvents`` it carries, so that an issue's counts
    /// and rates are those of the error storm, not of the events its reporter kept.
    package var eventCount: Int { 1 + suppressedEvents }

    /// What the event says happened, as Sentry titles it: an exception's type and value (`ZeroDivisionError:
    /// division by zero`), else the message. Faultline's own events name their kind in `error.kind`, so their title
    /// is the exception's value alone (`POST /travels: HTTP 400 code 40013 …`).
    package var title: String {
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
    package var kind: String {
        if let kind = tags["error.kind"] { return kind }
        if exceptionType != nil || exceptionValue != nil { return "error" }
        return message != nil ? "message" : "other"
    }

    /// Creates a record.
    package init(eventID: String, timestamp: Double) {
        self.eventID = eventID
        self.timestamp = timestamp
    }
}
