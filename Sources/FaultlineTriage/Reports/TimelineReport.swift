/// `faultline timeline`: events over time in equal buckets, empty buckets shown, so that the start of an incident
/// and its gaps stand out.
public struct TimelineReport: Hashable, Sendable, Codable {
    /// One bucket: its start (RFC 3339 UTC) and its events.
    public struct Bucket: Hashable, Sendable, Codable {
        public let start: String
        public let events: Int
    }

    /// The bucket sizes chosen from, in minutes, smallest first.
    static let sizes = [1, 5, 15, 60, 360, 1440]
    /// The most buckets a chosen size gives.
    static let maximumBuckets = 48

    public let bucketMinutes: Int
    public let buckets: [Bucket]
    public let events: Int
    public let read: ReadCounts

    enum CodingKeys: String, CodingKey {
        case buckets, events, read
        case bucketMinutes = "bucket_minutes"
    }

    /// The timeline of `scan`, in buckets of `bucketMinutes`, or of the smallest size that gives at most 48.
    public init(_ scan: LogScan, bucketMinutes: Int? = nil) {
        events = scan.events
        read = scan.counts
        guard let first = scan.minutes.keys.min(), let last = scan.minutes.keys.max() else {
            self.bucketMinutes = bucketMinutes ?? 1
            buckets = []
            return
        }
        let size = max(
            1,
            bucketMinutes ?? Self.sizes.first { (last / $0 - first / $0) < Self.maximumBuckets }
                ?? Self.sizes[Self.sizes.count - 1])
        var counts = [Int](repeating: 0, count: last / size - first / size + 1)
        for (minute, count) in scan.minutes { counts[minute / size - first / size] += count }
        self.bucketMinutes = size
        buckets = counts.enumerated().map { index, count in
            Bucket(start: UTCTime.string(Double((first / size + index) * size * 60)), events: count)
        }
    }

    /// The timeline as the terminal shows it: one line per bucket with a bar scaled to the largest.
    public func text(style: TextStyle) -> String {
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
