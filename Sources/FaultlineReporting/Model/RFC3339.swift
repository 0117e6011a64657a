import Foundation

/// RFC 3339 timestamps in UTC with milliseconds (`2026-11-22T10:41:34.123Z`): fixed width, so they sort as text and
/// are cheap to parse.
package enum RFC3339 {
    /// The timestamp of `date`.
    package static func string(from date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt))
    }
}
