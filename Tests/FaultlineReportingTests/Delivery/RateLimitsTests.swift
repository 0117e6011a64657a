import Foundation
import Testing

@testable import FaultlineReporting

/// Reading `X-Sentry-Rate-Limits` and `Retry-After` as Sentry's rate-limiting spec says.
@Suite struct RateLimitsTests {
    let now = ContinuousClock.now

    @Test func aHeaderLimitsItsKnownCategoriesForFractionalSeconds() {
        var limits = RateLimits<ContinuousClock.Instant>()
        limits.update(status: 200, rateLimits: "2.5:error;transaction:key:quota_exceeded", retryAfter: nil, now: now)
        #expect(limits.deadline(for: .error, at: now) == now + .milliseconds(2500))
        #expect(limits.deadline(for: .error, at: now + .seconds(3)) == nil)
        #expect(limits.deadline(for: .internal, at: now) == nil)
    }

    @Test func anEmptyCategoryListLimitsEverythingIncludingClientReports() {
        var limits = RateLimits<ContinuousClock.Instant>()
        limits.update(status: 429, rateLimits: "60::organization", retryAfter: "5", now: now)
        #expect(limits.deadline(for: .error, at: now) == now + .seconds(60))
        #expect(limits.deadline(for: .internal, at: now) == now + .seconds(60))
    }

    @Test func unknownCategoriesAndMalformedEntriesAreIgnored() {
        var limits = RateLimits<ContinuousClock.Instant>()
        limits.update(status: 200, rateLimits: "30:metric_bucket:org, abc:error:key, 10", retryAfter: nil, now: now)
        #expect(limits.deadline(for: .error, at: now) == nil)
        #expect(limits.deadline(for: .internal, at: now) == nil)
    }

    @Test func theLongerOfOverlappingLimitsWins() {
        var limits = RateLimits<ContinuousClock.Instant>()
        limits.update(status: 200, rateLimits: "10:error:key, 3:error:project", retryAfter: nil, now: now)
        limits.update(status: 200, rateLimits: "1:error:key", retryAfter: nil, now: now)
        #expect(limits.deadline(for: .error, at: now) == now + .seconds(10))
    }

    @Test func a429WithoutTheHeaderUsesRetryAfterOrSixtySeconds() {
        var withRetryAfter = RateLimits<ContinuousClock.Instant>()
        withRetryAfter.update(status: 429, rateLimits: nil, retryAfter: "7", now: now)
        #expect(withRetryAfter.deadline(for: .error, at: now) == now + .seconds(7))

        var withNothing = RateLimits<ContinuousClock.Instant>()
        withNothing.update(status: 429, rateLimits: nil, retryAfter: nil, now: now)
        #expect(withNothing.deadline(for: .internal, at: now) == now + .seconds(60))

        var notA429 = RateLimits<ContinuousClock.Instant>()
        notA429.update(status: 503, rateLimits: nil, retryAfter: "7", now: now)
        #expect(notA429.deadline(for: .error, at: now) == nil)
    }
}
