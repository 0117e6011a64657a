import Foundation
import Testing

@testable import FaultlineRecords

/// The latency histogram's buckets tile the durations without gaps, a percentile is within 1/32 of the duration it
/// stands for, and histograms merge exactly.
@Suite struct LatencyHistogramTests {
    @Test func theBucketsFollowOneAnotherAndHoldTheirOwnBounds() {
        let last = LatencyHistogram.bucket(ofMicroseconds: 1 << 62)
        for index in 0..<last {
            let lower = LatencyHistogram.lowerBound(of: index)
            let upper = LatencyHistogram.upperBound(of: index)
            #expect(LatencyHistogram.lowerBound(of: index + 1) == upper, "bucket \(index)")
            #expect(LatencyHistogram.bucket(ofMicroseconds: lower) == index)
            #expect(LatencyHistogram.bucket(ofMicroseconds: upper - 1) == index)
            // no wider than a 16th of its lower bound, past the buckets of one microsecond
            #expect(lower < 32 ? upper - lower == 1 : (upper - lower) * 16 <= lower, "bucket \(index)")
        }
    }

    @Test func aPercentileIsWithinAThirtySecondOfTheDurationsItStandsFor() throws {
        // Given 1 000 durations from 1.5 ms to 2.5 s, log-uniform, recorded in a shuffled order
        let durations = (0..<1_000).map { 1_500.0 * pow(1_666.0, Double($0) / 999) }
        var histogram = LatencyHistogram()
        var generator = SystemRandomNumberGenerator()
        for microseconds in durations.shuffled(using: &generator) {
            histogram.record(.microseconds(microseconds))
        }

        // Then each percentile is within 1/32 of the exact one
        #expect(histogram.total == 1_000)
        for fraction in [0.01, 0.5, 0.9, 0.95, 0.99, 1.0] {
            let exact = durations[Int((fraction * 1_000).rounded(.up)) - 1]
            let read = try #require(histogram.percentile(fraction)) / .microseconds(1)
            #expect(abs(read - exact) <= exact / 32, "p\(fraction * 100): \(read) µs for \(exact) µs")
        }
    }

    @Test func histogramsMergedCountWhatOneHistogramOfAllTheirDurationsCounts() {
        var first = LatencyHistogram()
        var second = LatencyHistogram()
        var both = LatencyHistogram()
        for milliseconds in 1...500 {
            let duration = Duration.milliseconds(milliseconds * 7 % 997)
            if milliseconds.isMultiple(of: 3) { first.record(duration) } else { second.record(duration) }
            both.record(duration)
        }
        first.merge(second)
        #expect(first == both)
        #expect(first.percentile(0.95) == both.percentile(0.95))
    }

    @Test func bucketsAddedInOneWalkCountWhatRecordingEachCounts() {
        // Given a running histogram, and a line's few buckets: ascending, then out of order and one named twice
        var running = LatencyHistogram()
        for milliseconds in stride(from: 1, to: 900, by: 4) { running.record(.milliseconds(milliseconds)) }
        var recorded = running
        let ascending = [70, 300, 5_000, 1_000_000].map { Self.entry(microseconds: $0, count: 2) }
        let unordered = [900_000, 70, 900_000, 12, 40_000_000_000].map { Self.entry(microseconds: $0, count: 3) }
        for entry in ascending + unordered {
            recorded.add(count: entry.count, toBucket: entry.index)
        }

        // When they are added in one walk each
        running.add(ascending[...])
        running.add(unordered[...])

        // Then it counts what adding each bucket alone counts
        #expect(running == recorded)
        #expect(running.total == recorded.total)
    }

    private static func entry(microseconds: UInt64, count: Int) -> LatencyHistogram.Entry {
        LatencyHistogram.Entry(index: LatencyHistogram.bucket(ofMicroseconds: microseconds), count: count)
    }

    @Test func aBucketIsReadBackOnlyFromItsOwnLowerBound() {
        var histogram = LatencyHistogram()
        let added = [
            histogram.add(count: 3, inBucketFrom: 4352), histogram.add(count: 3, inBucketFrom: 4353),
            histogram.add(count: 0, inBucketFrom: 4352),
        ]
        #expect(added == [true, false, false])
        #expect(histogram.total == 3)
        #expect(histogram.buckets.map(\.lowerBound) == [4352])
        #expect(LatencyHistogram().percentile(0.5) == nil)
    }
}
