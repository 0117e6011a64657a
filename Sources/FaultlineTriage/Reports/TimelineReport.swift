/// `faultline timeline`: events over time in equal buckets, empty buckets shown, so that the start of an incident
/// and its gaps stand out.
public struct TimelineReport: Hashable, Sendable, Encodable {
    /// One bucket: its start (RFC 3339 UTC) and its events.
    public struct Bucket: Hashable, Sendable, Encodable {
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
        case buckets, read
        case events = "event_count"
        case bucketMinutes = "bucket_minutes"
    }

    public func encode(to encoder: any Encoder) throws {
        try JSONSchemaVersion.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(bucketMinutes, forKey: .bucketMinutes)
        try container.encode(buckets, forKey: .buckets)
        try container.encode(events, forKey: .events)
        try container.encode(read, forKey: .read)
    }

    /// The timeline of `scan` from `start` to `end` (seconds since 1970; by default its first and last event), in
    /// buckets of `bucketMinutes`, or of the smallest size that gives at most 48. A window that runs past the last
    /// event (`--since 2h` runs to now) shows its empty buckets: that errors stopped is news too.
    public init(_ scan: LogScan, bucketMinutes: Int? = nil, from start: Double? = nil, to end: Double? = nil) {
        events = scan.events
        read = scan.counts
        let minute = { (seconds: Double) in Int((seconds / 60).rounded(.down)) }
        guard let first = start.map(minute) ?? scan.minutes.keys.min(),
            let last = end.map({ minute($0.nextDown) }) ?? scan.minutes.keys.max(), first <= last
        else {
            self.bucketMinutes = bucketMinutes ?? 1
            buckets = []
            return
        }
        let size = max(
            1,
            bucketMinutes ?? Self.sizes.first { (last / $0 - first / $0) < Self.maximumBuckets }
                ?? Self.sizes[Self.sizes.count - 1])
        var counts = [Int](repeating: 0, count: last / size - first / size + 1)
        for (minute, count) in scan.minutes where (first...last).contains(minute) {
            counts[minute / size - first / size] += count
        }
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
