import FaultlineRecords
import Foundation

/// Times in events: RFC 3339 text from any SDK read and written back to the same millisecond, and the pipeline's
/// digit-by-digit writer against Foundation's calendar. Both over the times a Double holds to the microsecond: from
/// 1970 to 2242 (2^33 seconds).
enum RFC3339Fuzzing {
    static let microsecondRange: UInt64 = (1 << 33) * 1_000_000

    static func run(_ data: Data) throws(Disagreement) {
        if let text = String(data: data, encoding: .utf8), let seconds = RFC3339.seconds(text), seconds >= 0,
            seconds < Double(1 << 33)
        {
            let written = RFC3339.string(seconds: seconds)
            guard let again = RFC3339.seconds(written) else {
                throw Disagreement(description: "\(written), written for \(text), cannot be read back")
            }
            // Written to the millisecond, truncated after rounding to the microsecond: what is read back is at most
            // half a microsecond after the time read, and less than a millisecond before it.
            try Disagreement.check(
                again <= seconds + 0.000_000_6 && again > seconds - 0.001_000_6,
                "\(text) read as \(seconds), written as \(written)")
        }
        guard data.count >= 8 else { return }
        let raw = data.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        // A time to the microsecond, so that fractions near a millisecond's edge come up: the date and time of its
        // whole seconds as Foundation writes them, and its milliseconds truncated from the exact microseconds.
        let microseconds = raw % microsecondRange
        let written = RFC3339.string(seconds: Double(microseconds) / 1_000_000)
        let whole = Date(timeIntervalSince1970: Double(microseconds / 1_000_000))
            .formatted(Date.ISO8601FormatStyle(timeZone: .gmt))
        let expected = whole.dropLast() + "." + String(format: "%03d", Int(microseconds % 1_000_000 / 1000)) + "Z"
        try Disagreement.check(written == expected, "\(microseconds) µs written as \(written), not \(expected)")
    }
}
