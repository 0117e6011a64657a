/// A trend drawn with block characters, one per bucket, scaled to the largest bucket; an empty bucket is a space
/// so that gaps show.
enum Sparkline {
    private static let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    static func draw(_ counts: [Int]) -> String {
        let largest = counts.max() ?? 0
        guard largest > 0 else { return String(repeating: " ", count: counts.count) }
        return String(
            counts.map { count in
                count == 0 ? " " : blocks[min(blocks.count - 1, (count * blocks.count - 1) / largest)]
            })
    }

    /// Event counts by period (seconds since 1970 divided by `period` seconds, such as 60 for minutes) spread over
    /// `buckets` equal buckets from `start` to `end` (seconds).
    static func buckets(
        _ periods: [Int: Int], period: Double, count buckets: Int, from start: Double, to end: Double
    ) -> [Int] {
        var counts = [Int](repeating: 0, count: buckets)
        let first = Int((start / period).rounded(.down))
        let span = max(1, Int((end / period).rounded(.down)) - first + 1)
        for (index, count) in periods {
            let bucket = (index - first) * buckets / span
            counts[min(buckets - 1, max(0, bucket))] += count
        }
        return counts
    }
}
