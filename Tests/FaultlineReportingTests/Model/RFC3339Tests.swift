import Foundation
import Testing

@testable import FaultlineReporting

/// The timestamps Faultline writes digit by digit, checked against Foundation's ISO 8601 format style, which wrote them
/// before.
@Suite struct RFC3339Tests {
    static let foundation = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)

    @Test func writesWhatFoundationWritesAcrossFourCenturies() {
        var generator = SystemRandomNumberGenerator()
        // 1800 to 2200: leap days, century years, before 1970.
        for _ in 0..<20_000 {
            let seconds = Double.random(in: -5_364_662_400...7_258_118_400, using: &generator)
            let date = Date(timeIntervalSince1970: seconds)
            #expect(RFC3339.string(from: date) == date.formatted(Self.foundation), "\(seconds)")
        }
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
}
