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

    /// `hours` (event counts by hour) spread over `buckets` equal buckets from `start` to `end` (seconds).
    static func buckets(_ hours: [Int: Int], count buckets: Int, from start: Double, to end: Double) -> [Int] {
        var counts = [Int](repeating: 0, count: buckets)
        let firstHour = Int((start / 3600).rounded(.down))
        let span = max(1, Int((end / 3600).rounded(.down)) - firstHour + 1)
        for (hour, count) in hours {
            let index = (hour - firstHour) * buckets / span
            counts[min(buckets - 1, max(0, index))] += count
        }
        return counts
    }
}
