/// An issue's trend as a small inline SVG, the page's counterpart of the terminal's sparkline: one column per
/// bucket, scaled to the largest bucket.
struct TrendChart {
    let counts: [Int]

    private static let columnWidth = 6
    private static let height = 18

    func svg() -> String {
        let largest = max(1, counts.max() ?? 0)
        let width = counts.count * Self.columnWidth
        var svg = "<svg class=\"trend\" width=\"\(width)\" height=\"\(Self.height)\" role=\"img\">"
        for (index, count) in counts.enumerated() where count > 0 {
            let columnHeight = max(2, count * Self.height / largest)
            svg += "<rect x=\"\(index * Self.columnWidth)\" y=\"\(Self.height - columnHeight)\" "
            svg += "width=\"\(Self.columnWidth - 1)\" height=\"\(columnHeight)\" fill=\"#868e96\"/>"
        }
        return svg + "</svg>"
    }
}
