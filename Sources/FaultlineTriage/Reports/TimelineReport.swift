import FaultlineLogReading
import FaultlineRecords

/// `faultline timeline`: events over time in equal buckets, empty buckets shown, so that the start of an incident
/// and its gaps stand out.
package struct TimelineReport: Hashable, Sendable, Encodable {
    /// One bucket: its start (RFC 3339 UTC) and its events.
    package struct Bucket: Hashable, Sendable, Encodable {
        package let start: String
        package let events: Int
    }

    /// The bucket sizes chosen from, in minutes, smallest first.
    static let sizes = [1, 5, 15, 60, 360, 1440]
    /// The most buckets a chosen size gives.
    static let maximumBuckets = 48

    package let bucketMinutes: Int
    package let buckets: [Bucket]
    package let events: Int
    package let read: ReadCounts

    enum CodingKeys: String, CodingKey {
        case buckets, read
        case events = "event_count"
        case bucketMinutes = "bucket_minutes"
    }

    package func encode(to encoder: any Encoder) throws {
        try JSONSchemaVersion.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(bucketMinutes, forKey: .bucketMinutes)
        try container.encode(buckets, forKey: .buckets)
        try container.encode(events, forKey: .events)
        try container.encode(read, forKey: .read)
    }

    /// Why a timeline with the bucket size asked for is not made: it would have more than
    /// ``maximumRequestedBuckets`` buckets.
    package struct TooManyBuckets: Error, CustomStringConvertible {
        package let bucketMinutes: Int
        package let buckets: Int

        package var description: String {
            "buckets of \(counted(bucketMinutes, "minute")) would make \(buckets) buckets, more than "
                + "\(TimelineReport.maximumRequestedBuckets): ask for larger buckets or a shorter window (--since, --until)"
        }
    }

    /// The most buckets a bucket size asked for may give.
    package static let maximumRequestedBuckets = 10_000

    /// The timeline of `scan` from `start` to `end` (seconds since 1970; by default its first and last event), in
    /// buckets of the smallest size of 1, 5, 15, 60, 360 and 1440 minutes that gives at most 48, or else of as many
    /// days as give at most 48. A window that runs past the last event (`--since 2h` runs to now) shows its empty
    /// buckets: that errors stopped is news too.
    package init(_ scan: LogScan, from start: Double? = nil, to end: Double? = nil) {
        let range = Self.minutes(of: scan, from: start, to: end)
        let size = range.map { range in
            Self.sizes.first { Self.bucketCount(range, size: $0) <= Self.maximumBuckets }
                ?? Self.days(toFit: range) * 1440
        }
        self.init(scan, range: range, bucketMinutes: size ?? 1)
    }

    /// The timeline of `scan` from `start` to `end` (seconds since 1970; by default its first and last event), in
    /// buckets of `bucketMinutes`.
    ///
    /// - Throws: When that gives more than ``maximumRequestedBuckets`` buckets.
    package init(
        _ scan: LogScan, bucketMinutes: Int, from start: Double? = nil, to end: Double? = nil
    ) throws(TooManyBuckets) {
        let size = max(1, bucketMinutes)
        let range = Self.minutes(of: scan, from: start, to: end)
        if let range, Self.bucketCount(range, size: size) > Self.maximumRequestedBuckets {
            throw TooManyBuckets(bucketMinutes: size, buckets: Self.bucketCount(range, size: size))
        }
        self.init(scan, range: range, bucketMinutes: size)
    }

    private init(_ scan: LogScan, range: ClosedRange<Int>?, bucketMinutes size: Int) {
        events = scan.events
        read = scan.counts
        bucketMinutes = size
        guard let range else {
            buckets = []
            return
        }
        let first = Self.bucket(of: range.lowerBound, size: size)
        var counts = [Int](repeating: 0, count: Self.bucketCount(range, size: size))
        for (minute, count) in scan.minutes where range.contains(minute) {
            counts[Self.bucket(of: minute, size: size) - first] += count
        }
        buckets = counts.enumerated().map { index, count in
            Bucket(
                start: RFC3339.string(seconds: Double((first + index) * size * 60), precision: .seconds), events: count)
        }
    }

    /// The minutes since 1970 from `start` to `end`, by default `scan`'s first and last event; `nil` when there are
    /// none.
    private static func minutes(of scan: LogScan, from start: Double?, to end: Double?) -> ClosedRange<Int>? {
        let minute = { (seconds: Double) in Int((seconds / 60).rounded(.down)) }
        guard let first = start.map(minute) ?? scan.minutes.keys.min(),
            let last = end.map({ minute($0.nextDown) }) ?? scan.minutes.keys.max(), first <= last
        else { return nil }
        return first...last
    }

    /// How many buckets of `size` minutes `range` spans.
    private static func bucketCount(_ range: ClosedRange<Int>, size: Int) -> Int {
        bucket(of: range.upperBound, size: size) - bucket(of: range.lowerBound, size: size) + 1
    }

    /// The number of the bucket of `size` minutes that `minute` (since 1970) falls in, counted from the one that
    /// starts in 1970: rounded down before 1970 too, so that a bucket starts at or before its minutes.
    private static func bucket(of minute: Int, size: Int) -> Int {
        minute >= 0 ? minute / size : (minute + 1) / size - 1
    }

    /// The fewest days a bucket takes for `range` to span at most ``maximumBuckets``.
    private static func days(toFit range: ClosedRange<Int>) -> Int {
        var days = max(1, (range.upperBound - range.lowerBound) / (1440 * (maximumBuckets - 1)))
        while bucketCount(range, size: days * 1440) > maximumBuckets { days += 1 }
        return days
    }

    /// The timeline as the terminal shows it: one line per bucket with a bar scaled to the largest.
    package func text(style: TextStyle) -> String {
        guard !buckets.isEmpty else { return "No events found.\n" + ReadCounts.text(read, style: style) }
        let largest = buckets.map(\.events).max() ?? 1
        let width = String(largest).count
        var lines = [style.bold("\(counted(events, "event")) in buckets of \(counted(bucketMinutes, "minute"))")]
        for bucket in buckets {
            let bar = String(repeating: "█", count: bucket.events == 0 ? 0 : max(1, bucket.events * 50 / largest))
            let count = String(repeating: " ", count: width - String(bucket.events).count) + String(bucket.events)
            lines.append("\(bucket.start)  \(count)  \(bar)")
        }
        return lines.joined(separator: "\n") + "\n" + ReadCounts.text(read, style: style)
    }
}
