import Foundation

/// RFC 3339 timestamps in UTC with milliseconds (`2026-11-22T10:41:34.123Z`): fixed width, so they sort as text and
/// are cheap to parse.
package enum RFC3339 {
    /// The timestamp of `date`, milliseconds truncated, as `Date.ISO8601FormatStyle` writes it.
    ///
    /// Written digit by digit from the date's milliseconds since 1970: every event, breadcrumb and sent envelope is
    /// stamped, and the format style took 1.5 µs for each.
    package static func string(from date: Date) -> String {
        let interval = date.timeIntervalSince1970
        // Years 1 to 9999 have four digits; others are left to Foundation.
        guard interval >= -62_135_596_800, interval < 253_402_300_800 else {
            return date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt))
        }
        // The fraction is taken apart from the whole seconds, as Foundation does: milliseconds counted from 1970 in
        // one product would round up a fraction such as .9449999 to .945.
        let wholeSeconds = interval.rounded(.down)
        let fraction = Int((interval - wholeSeconds) * 1000)
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

    /// The proleptic Gregorian year, month and day of a day counted from 1970-01-01 (Howard Hinnant's
    /// `civil_from_days`); the triage reports' times use it too.
    package static func civilDate(daysSince1970: Int) -> (year: Int, month: Int, day: Int) {
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
}
