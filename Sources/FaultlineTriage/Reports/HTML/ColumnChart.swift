/// The timeline in inline SVG: one column per bucket, oldest on the left, empty buckets left blank so that gaps show,
/// with the largest count and the first and last bucket's start as axis labels.
struct ColumnChart {
    let buckets: [TimelineReport.Bucket]
    /// The columns' fill, as `#rrggbb`.
    let color: String

    private static let width = 1060
    private static let plotHeight = 160
    private static let left = 40
    /// Columns stay narrow when there are few buckets, so that one bucket does not read as a wall.
    private static let widestColumn = 36

    func svg() -> String {
        guard let largest = buckets.map(\.events).max(), largest > 0 else {
            return "<p class=\"empty\">None.</p>"
        }
        let height = Self.plotHeight + 24
        let step = Double(Self.width - Self.left) / Double(buckets.count)
        let columnWidth = min(Self.widestColumn, max(1, Int(step * 0.8)))
        var svg =
            "<svg class=\"chart\" width=\"\(Self.width)\" height=\"\(height)\" viewBox=\"0 0 \(Self.width) \(height)\" "
            + "role=\"img\">"
        svg += "<text x=\"\(Self.left - 6)\" y=\"12\" text-anchor=\"end\">\(largest)</text>"
        svg += "<text x=\"\(Self.left - 6)\" y=\"\(Self.plotHeight)\" text-anchor=\"end\">0</text>"
        svg +=
            "<line x1=\"\(Self.left)\" y1=\"\(Self.plotHeight)\" x2=\"\(Self.width)\" y2=\"\(Self.plotHeight)\" "
            + "stroke=\"#adb5bd\"/>"
        for (index, bucket) in buckets.enumerated() where bucket.events > 0 {
            let columnHeight = max(2, bucket.events * (Self.plotHeight - 4) / largest)
            let x = Self.left + Int(Double(index) * step)
            svg += "<rect x=\"\(x)\" y=\"\(Self.plotHeight - columnHeight)\" width=\"\(columnWidth)\" "
            svg +=
                "height=\"\(columnHeight)\" fill=\"\(color)\"><title>\(bucket.start): \(bucket.events)</title></rect>"
        }
        let labelY = Self.plotHeight + 18
        svg += "<text x=\"\(Self.left)\" y=\"\(labelY)\">\(UTCTime.minute(buckets[0].start)) UTC</text>"
        if buckets.count > 1 {
            svg += "<text x=\"\(Self.width)\" y=\"\(labelY)\" text-anchor=\"end\">"
            svg += "\(UTCTime.minute(buckets[buckets.count - 1].start)) UTC</text>"
        }
        return svg + "</svg>"
    }
}
