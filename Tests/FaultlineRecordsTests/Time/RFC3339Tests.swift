import Foundation
import Testing

@testable import FaultlineRecords

/// The timestamps Faultline writes digit by digit, checked against Foundation's ISO 8601 format style, which wrote them
/// before, and read back in every form RFC 3339 allows.
@Suite struct RFC3339Tests {
    static let foundation = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)

    @Test func writesWhatFoundationWritesAcrossFourCenturiesToTheMicrosecond() {
        var generator = SystemRandomNumberGenerator()
        // 1800 to 2200: leap days, century years, before 1970; times to the microsecond, as SDKs send them. The date
        // and time are Foundation's, the milliseconds those of the exact microseconds, truncated: Foundation itself
        // truncates the Double, whose error writes a time read as `.123` as `.122`.
        for _ in 0..<20_000 {
            let microseconds = Int64.random(in: -5_364_662_400_000_000...7_258_118_400_000_000, using: &generator)
            let (whole, fraction) = (
                microseconds - (microseconds % 1_000_000 + 1_000_000) % 1_000_000,
                (microseconds % 1_000_000 + 1_000_000) % 1_000_000
            )
            let date = Date(timeIntervalSince1970: Double(whole) / 1_000_000)
            let expected =
                date.formatted(Self.foundation).dropLast(4) + String(format: "%03d", Int(fraction / 1000)) + "Z"
            #expect(RFC3339.string(seconds: Double(microseconds) / 1_000_000) == expected, "\(microseconds)")
        }
    }

    @Test(arguments: [
        ("2026-11-23T09:00:00.123Z", "2026-11-23T09:00:00.123Z"),
        ("2026-11-23T09:00:00.999Z", "2026-11-23T09:00:00.999Z"),
        ("1999-12-31T23:59:59.001Z", "1999-12-31T23:59:59.001Z"),
        // Through a Date, which counts from 2001, this time came back a microsecond later, as .355 (a full run).
        ("1846-09-11T15:26:06.354999Z", "1846-09-11T15:26:06.354Z"),
    ])
    func aTimeReadIsWrittenBackToTheSameMillisecond(text: String, expected: String) throws {
        let seconds = try #require(RFC3339.seconds(text))
        #expect(RFC3339.string(seconds: seconds) == expected)
    }

    @Test(arguments: [
        (0.0, "1970-01-01T00:00:00.000Z"),
        (-0.25, "1969-12-31T23:59:59.750Z"),
        (951_782_400.5, "2000-02-29T00:00:00.500Z"),
        (4_107_542_399.75, "2100-02-28T23:59:59.750Z"),
        (1_795_870_894.125, "2026-11-28T13:01:34.125Z"),
        (253_402_300_799.5, "9999-12-31T23:59:59.500Z"),
    ])
    func writesEdgesOfDaysYearsAndCenturies(seconds: Double, expected: String) {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(RFC3339.string(from: date) == expected)
        #expect(date.formatted(Self.foundation) == expected)
    }

    @Test func leavesYearsWithoutFourDigitsToFoundation() {
        let date = Date(timeIntervalSince1970: 253_402_300_800)
        #expect(RFC3339.string(from: date) == date.formatted(Self.foundation))
    }

    @Test func writesToTheSecondTruncatingTheFraction() {
        #expect(RFC3339.string(seconds: 1_795_870_894.999, precision: .seconds) == "2026-11-28T13:01:34Z")
        #expect(RFC3339.string(seconds: -0.25, precision: .seconds) == "1969-12-31T23:59:59Z")
        #expect(RFC3339.string(seconds: 951_782_400, precision: .seconds) == "2000-02-29T00:00:00Z")
    }

    @Test func readsBackWhatItWritesAcrossFourCenturiesToTheMillisecondItKeeps() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let seconds = Double.random(in: -5_364_662_400...7_258_118_400, using: &generator)
            let text = RFC3339.string(seconds: seconds)
            let read = RFC3339.seconds(text) ?? .nan
            #expect(read <= seconds + 0.000_01 && read > seconds - 0.001 - 0.000_01, "\(seconds) \(text)")
            #expect(RFC3339.seconds(RFC3339.string(seconds: seconds, precision: .seconds)) == seconds.rounded(.down))
        }
    }

    @Test(arguments: [
        ("2026-11-23T11:15:13Z", 1_795_432_513.0),
        ("2026-11-23T11:15:13.5Z", 1_795_432_513.5),
        ("2026-11-23T20:15:13+09:00", 1_795_432_513.0),
        ("2026-11-23T06:45:13-04:30", 1_795_432_513.0),
        ("2026-11-23t11:15:13z", 1_795_432_513.0),
        ("2026-11-23 11:15:13Z", 1_795_432_513.0),
        ("0001-01-01T00:00:00Z", -62_135_596_800.0),
    ])
    func readsEveryFormRFC3339Allows(text: String, seconds: Double) {
        #expect(RFC3339.seconds(text) == seconds)
    }

    @Test(arguments: [
        "", "2026-11-23", "2026-11-23T11:15:13", "2026-11-23T11:15:13Z ", "2026-13-01T00:00:00Z",
        "2026-11-32T00:00:00Z", "2026-11-23T24:00:00Z", "2026-11-23T11:15:13+0900", "2026/11/23T11:15:13Z",
    ])
    func refusesWhatIsNotATimestamp(text: String) {
        #expect(RFC3339.seconds(text) == nil)
    }
}
