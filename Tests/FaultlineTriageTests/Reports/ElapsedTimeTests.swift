import Testing

@testable import FaultlineTriage

/// Ages read at a glance: the two largest units, none that is zero.
@Suite struct ElapsedTimeTests {
    @Test(arguments: [
        (0.4, "0s"), (45, "45s"), (60, "1m"), (725, "12m 5s"), (3_600, "1h"), (12_030, "3h 20m"),
        (187_200, "2d 4h"), (-5, "0s"),
    ])
    func anAgeIsShownInItsTwoLargestUnits(seconds: Double, text: String) {
        #expect(ElapsedTime.text(seconds: seconds) == text)
    }
}
