/// How a maximum age is kept, the same for the event log and the outboxes: files are removed whole, so each file spans
/// a small part of the age (``span(of:)``), and files past the age are looked for regularly (``checkInterval(of:)``).
/// A record is then kept at most the age, a span and an interval.
package enum Retention {
    /// The most time one file's records span: a 24th of the age.
    package static func span(of age: Duration) -> Duration { age / 24 }

    /// How often files past the age are looked for: every span, at most every minute.
    package static func checkInterval(of age: Duration) -> Duration { min(.seconds(60), span(of: age)) }
}
