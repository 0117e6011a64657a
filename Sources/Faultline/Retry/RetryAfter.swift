import Foundation

/// Reads an HTTP `Retry-After` value (RFC 9110 §10.2.3): delay seconds, or an HTTP-date.
public enum RetryAfter {
    /// The delay a `Retry-After` value asks for, measured from `now`; `nil` when the value is neither form.
    ///
    /// Fractional seconds are accepted (Sentry's ingest sends them); a date in the past means no delay.
    public static func delay(from value: String, now: Date = Date()) -> Duration? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(trimmed), seconds.isFinite, seconds >= 0 {
            return .milliseconds(Int64((seconds * 1000).rounded(.up)))
        }
        guard let date = httpDate(trimmed) else { return nil }
        return .milliseconds(Int64(max(0, date.timeIntervalSince(now) * 1000).rounded(.up)))
    }

    private static func httpDate(_ text: String) -> Date? {
        // IMF-fixdate, then the two obsolete forms RFC 9110 requires recipients to accept.
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
