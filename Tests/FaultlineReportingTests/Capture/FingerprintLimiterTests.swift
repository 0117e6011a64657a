import Foundation
import Testing

@testable import FaultlineReporting

/// The limiter's windows: opened by a kept event, closed by time or by a clock set back, and counts given back.
@Suite struct FingerprintLimiterTests {
    let start = Date(timeIntervalSince1970: 1_795_510_800)
    let storm = ["message", "database down"]

    @Test func aWindowOpensAtTheFirstKeptEventAndEndsAfterItsDuration() {
        var limiter = FingerprintLimiter(limit: .init(events: 2, per: .seconds(10)))

        let decisions = [0, 1, 5, 9.9, 10, 10.5].map { limiter.admit(storm, at: start + $0) }

        #expect(
            decisions == [
                .keep(carrying: 0), .keep(carrying: 0), .suppress, .suppress, .keep(carrying: 2), .keep(carrying: 0),
            ])
    }

    @Test func aClockSetBackOpensANewWindow() {
        var limiter = FingerprintLimiter(limit: .init(events: 1, per: .seconds(60)))

        #expect(limiter.admit(storm, at: start) == .keep(carrying: 0))
        #expect(limiter.admit(storm, at: start + 1) == .suppress)
        #expect(limiter.admit(storm, at: start - 3600) == .keep(carrying: 1))
    }

    @Test func aCountThatCouldNotBeQueuedIsCarriedByTheNextKeptEvent() {
        var limiter = FingerprintLimiter(limit: .init(events: 1, per: .seconds(60)))
        #expect(limiter.admit(storm, at: start) == .keep(carrying: 0))
        #expect(limiter.admit(storm, at: start + 1) == .suppress)
        #expect(limiter.admit(storm, at: start + 60) == .keep(carrying: 1))

        // When the event that carried 1 could not be queued, its count is given back
        limiter.restore(1, of: storm)

        #expect(limiter.admit(storm, at: start + 61) == .suppress)
        #expect(limiter.admit(storm, at: start + 120) == .keep(carrying: 2))
    }

    @Test func fingerprintsWithNothingToCarryAreForgottenOnceTheirWindowIsOver() {
        var limiter = FingerprintLimiter(limit: .init(events: 1, per: .seconds(1)))
        // Given a fingerprint with a count to carry, and 10 000 others seen once
        _ = limiter.admit(storm, at: start)
        _ = limiter.admit(storm, at: start)
        for index in 0..<10_000 { _ = limiter.admit(["message", "\(index)"], at: start + 2 + Double(index)) }

        // Then the old ones were forgotten as new ones came, and the count to carry was kept
        #expect(limiter.trackedFingerprints < 200)
        #expect(limiter.admit(storm, at: start + 20_000) == .keep(carrying: 1))
    }
}
