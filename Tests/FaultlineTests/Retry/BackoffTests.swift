import Faultline
import Foundation
import Testing

@Suite struct BackoffTests {
    @Test func delaysGrowByTheMultiplierUpToTheMaximumLessAtMostTheJitter() {
        let backoff = Backoff(initial: .seconds(1), multiplier: 3, maximum: .seconds(10), jitter: 0.25)
        for _ in 0..<200 {
            let first = backoff.delay(beforeRetry: 1)
            let second = backoff.delay(beforeRetry: 2)
            let capped = backoff.delay(beforeRetry: 5)
            #expect(first >= .milliseconds(750) && first <= .seconds(1))
            #expect(second >= .milliseconds(2250) && second <= .seconds(3))
            #expect(capped >= .milliseconds(7500) && capped <= .seconds(10))
        }
    }

    @Test func retriesThroughALongOutageWaitTheMaximumWithoutOverflowing() {
        // (an uploader counts every failed attempt of an outage: about 70 doublings overflowed a Duration, and trapped)
        let backoff = Backoff(initial: .milliseconds(100), multiplier: 2, maximum: .milliseconds(400), jitter: 0)
        for retry in [70, 80, 1_100, Int.max] {
            #expect(backoff.delay(beforeRetry: retry) == .milliseconds(400), "retry \(retry)")
        }
    }

    @Test func jitterSpreadsTheDelaysBetweenZeroAndTheFullDelay() {
        // Given full jitter on the first retry's 500 ms
        let backoff = Backoff(jitter: 1)

        // When 50 delays are drawn
        let delays = (0..<50).map { _ in backoff.delay(beforeRetry: 1) }

        // Then each is more than none and at most the full delay, they differ, and they fall on both sides of half
        // (all 50 on one side has a chance of 2 in 2^50)
        #expect(delays.allSatisfy { $0 > .zero && $0 <= .milliseconds(500) }, "\(delays)")
        #expect(Set(delays).count > 40)
        #expect(delays.contains { $0 < .milliseconds(250) } && delays.contains { $0 > .milliseconds(250) })
    }

    @Test func noJitterGivesTheExactDelay() {
        #expect(Backoff(initial: .milliseconds(200), jitter: 0).delay(beforeRetry: 3) == .milliseconds(800))
    }

    @Test func retryAfterAcceptsSecondsFractionsAndDates() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(RetryAfter.delay(from: "120", now: now) == .seconds(120))
        #expect(RetryAfter.delay(from: " 1.5 ", now: now) == .milliseconds(1500))
        #expect(RetryAfter.delay(from: "Tue, 14 Nov 2023 22:14:20 GMT", now: now) == .seconds(60))
        #expect(RetryAfter.delay(from: "Tuesday, 14-Nov-23 22:14:20 GMT", now: now) == .seconds(60))
        #expect(RetryAfter.delay(from: "Tue Nov 14 22:14:20 2023", now: now) == .seconds(60))
        #expect(RetryAfter.delay(from: "Mon, 13 Nov 2023 00:00:00 GMT", now: now) == .zero)
        #expect(RetryAfter.delay(from: "soon", now: now) == nil)
        #expect(RetryAfter.delay(from: "-3", now: now) == nil)
    }
}
