/// Reads RFC 3339 timestamps such as `2026-11-23T11:15:13.842Z` or `…+09:00` into seconds since 1970, without a
/// formatter: `ISO8601DateFormatter` costs more than scanning the whole event.
package enum RFC3339Time {
    /// The seconds since 1970 that RFC 3339 can write, from 0001-01-01 to the end of 9999: the times triage reads.
    package static let range: ClosedRange<Double> = -62_135_596_800...253_402_300_799.999

    package static func seconds(_ text: String) -> Double? {
        var utf8 = Array(text.utf8)[...]
        func digits(_ count: Int) -> Int? {
            guard utf8.count >= count else { return nil }
            var value = 0
            for byte in utf8.prefix(count) {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            utf8 = utf8.dropFirst(count)
            return value
        }
        func take(_ separators: StaticString) -> Bool {
            guard let first = utf8.first,
                UnsafeBufferPointer(start: separators.utf8Start, count: separators.utf8CodeUnitCount).contains(first)
            else { return false }
            utf8 = utf8.dropFirst()
            return true
        }
        guard let year = digits(4), take("-"), let month = digits(2), take("-"), let day = digits(2),
            take("Tt "), let hour = digits(2), take(":"), let minute = digits(2), take(":"),
            let second = digits(2), (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60,
            second < 61
        else { return nil }
        var fraction = 0.0
        if take(".") {
            var scale = 0.1
            while let byte = utf8.first, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                fraction += Double(byte - UInt8(ascii: "0")) * scale
                scale /= 10
                utf8 = utf8.dropFirst()
            }
        }
        var offset = 0
        if take("Zz") {
            offset = 0
        } else if let sign = utf8.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            utf8 = utf8.dropFirst()
            guard let hours = digits(2), take(":"), let minutes = digits(2) else { return nil }
            offset = (hours * 60 + minutes) * 60 * (sign == UInt8(ascii: "-") ? -1 : 1)
        } else {
            return nil
        }
        guard utf8.isEmpty else { return nil }
        let days = daysSince1970(year: year, month: month, day: day)
        return Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset) + fraction
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
}
