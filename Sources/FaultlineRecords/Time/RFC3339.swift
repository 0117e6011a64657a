import Foundation

/// The one codec of RFC 3339 timestamps, without a formatter: written in UTC with milliseconds
/// (`2026-11-22T10:41:34.123Z`: fixed width, so they sort as text) or to the second (`2026-11-22T10:41:34Z`, the
/// reports' times), and read in any form RFC 3339 allows (`…T11:15:13.842Z`, `…+09:00`, a lower-case `t` or a space
/// between date and time).
///
/// Both directions are hot: every event, breadcrumb and sent envelope is stamped, and triage reads the time of every
/// event it scans; `ISO8601DateFormatter` and `Date.ISO8601FormatStyle` cost more than the rest of either job.
package enum RFC3339 {
    /// How much of a second a written timestamp keeps; the rest is truncated.
    package enum Precision: Sendable {
        /// `2026-11-22T10:41:34.123Z`.
        case milliseconds
        /// `2026-11-22T10:41:34Z`.
        case seconds
    }

    /// The seconds since 1970 that RFC 3339 can write with its four-digit years, from 0001-01-01 to the end of 9999:
    /// the times read.
    package static let range: ClosedRange<Double> = -62_135_596_800...253_402_300_799.999

    /// The timestamp of `date` in UTC, as `Date.ISO8601FormatStyle` writes it, milliseconds truncated, but for the
    /// fraction, rounded to the microsecond first so that a time read from text is written as it was read.
    ///
    /// Written digit by digit from the date's seconds since 1970; years outside 1 to 9999 are left to Foundation.
    package static func string(from date: Date, precision: Precision = .milliseconds) -> String {
        string(seconds: date.timeIntervalSince1970, precision: precision)
    }

    /// The timestamp `seconds` since 1970 stand for, in UTC; see ``string(from:precision:)``. Written from the
    /// seconds themselves: a `Date` counts from 2001, and the two conversions to it and back can move a time of the
    /// 19th century by a microsecond.
    package static func string(seconds interval: Double, precision: Precision = .milliseconds) -> String {
        guard interval >= range.lowerBound, interval < 253_402_300_800 else {
            let style = Date.ISO8601FormatStyle(
                includingFractionalSeconds: precision == .milliseconds, timeZone: .gmt)
            return Date(timeIntervalSince1970: interval).formatted(style)
        }
        let text = withMilliseconds(interval)
        switch precision {
        case .milliseconds: return text
        case .seconds: return String(decoding: text.utf8.prefix(19), as: UTF8.self) + "Z"
        }
    }

    /// `2026-11-22T10:41:34.123Z` for `interval` seconds since 1970, in years 1 to 9999.
    private static func withMilliseconds(_ interval: Double) -> String {
        // The fraction is taken apart from the whole seconds, as Foundation does: milliseconds counted from 1970 in
        // one product would round up a fraction such as .9449999 to .945. It is rounded to the microsecond before it
        // is truncated to the millisecond: `…:34.123Z` reads as a Double a little below .123, which Foundation writes
        // as .122 (FuzzCorpusTests keeps the input the rfc3339 fuzz target found this with).
        // Past 2^33 seconds from 1970 (the years after 2242, and before 1698) a Double no longer holds the microsecond,
        // and a time read to the millisecond can come back microseconds short of it: there the fraction is rounded
        // to the millisecond, so that a time written, read and written again stays the same.
        var wholeSeconds = interval.rounded(.down)
        let perSecond = abs(interval) < Double(1 << 33) ? 1_000_000 : 1000
        var units = Int(((interval - wholeSeconds) * Double(perSecond)).rounded())
        if units == perSecond {
            wholeSeconds += 1
            units = 0
        }
        let fraction = units / (perSecond / 1000)
        let seconds = Int(wholeSeconds)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds + 1) / 86_400 - 1
        let timeOfDay = (seconds - days * 86_400) * 1000 + fraction
        let (year, month, day) = civilDate(daysSince1970: days)
        return String(unsafeUninitializedCapacity: 24) { buffer in
            func put(_ value: Int, digits: Int, at start: Int) {
                var value = value
                for index in stride(from: start + digits - 1, through: start, by: -1) {
                    buffer[index] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
            }
            put(year, digits: 4, at: 0)
            put(month, digits: 2, at: 5)
            put(day, digits: 2, at: 8)
            put(timeOfDay / 3_600_000, digits: 2, at: 11)
            put(timeOfDay / 60_000 % 60, digits: 2, at: 14)
            put(timeOfDay / 1000 % 60, digits: 2, at: 17)
            put(timeOfDay % 1000, digits: 3, at: 20)
            (buffer[4], buffer[7], buffer[10]) = (UInt8(ascii: "-"), UInt8(ascii: "-"), UInt8(ascii: "T"))
            (buffer[13], buffer[16], buffer[19]) = (UInt8(ascii: ":"), UInt8(ascii: ":"), UInt8(ascii: "."))
            buffer[23] = UInt8(ascii: "Z")
            return 24
        }
    }

    /// The seconds since 1970 `text` stands for, with its fraction, or `nil` when it is not an RFC 3339 timestamp:
    /// `2026-11-23T11:15:13.842Z`, `2026-11-23T20:15:13+09:00`.
    package static func seconds(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { seconds($0) }
    }

    /// The seconds since 1970 the UTF-8 `bytes` stand for; see ``seconds(_:)-(String)``.
    package static func seconds(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        @inline(__always) func digits(_ count: Int) -> Int? {
            guard bytes.count - index >= count else { return nil }
            var value = 0
            for offset in index..<index + count {
                let digit = bytes[offset] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value &* 10 &+ Int(digit)
            }
            index += count
            return value
        }
        @inline(__always) func take(_ separator: UInt8, or other: UInt8? = nil, or third: UInt8? = nil) -> Bool {
            guard index < bytes.count else { return false }
            let byte = bytes[index]
            guard byte == separator || byte == other || byte == third else { return false }
            index += 1
            return true
        }
        guard let year = digits(4), take(UInt8(ascii: "-")), let month = digits(2), take(UInt8(ascii: "-")),
            let day = digits(2), take(UInt8(ascii: "T"), or: UInt8(ascii: "t"), or: UInt8(ascii: " ")),
            let hour = digits(2), take(UInt8(ascii: ":")), let minute = digits(2), take(UInt8(ascii: ":")),
            let second = digits(2), (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60,
            second < 61
        else { return nil }
        var fraction = 0.0
        if take(UInt8(ascii: ".")) {
            var scale = 0.1
            while index < bytes.count, isDigit(bytes[index]) {
                fraction += Double(bytes[index] - UInt8(ascii: "0")) * scale
                scale /= 10
                index += 1
            }
        }
        var offset = 0
        if take(UInt8(ascii: "Z"), or: UInt8(ascii: "z")) {
            offset = 0
        } else if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let hours = digits(2), take(UInt8(ascii: ":")), let minutes = digits(2) else { return nil }
            offset = (hours * 60 + minutes) * 60 * sign
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        let days = daysSince1970(year: year, month: month, day: day)
        return Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset) + fraction
    }

    /// The proleptic Gregorian year, month and day of a day counted from 1970-01-01 (Howard Hinnant's
    /// `civil_from_days`).
    private static func civilDate(daysSince1970: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = daysSince1970 + 719_468  // days since 0000-03-01
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
