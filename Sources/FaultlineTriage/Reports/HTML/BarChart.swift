/// A horizontal bar chart in inline SVG: one labelled bar per count, scaled to the largest, with the count at the
/// bar's end. Bars share one colour per chart, so a rendering of the page can be checked chart by chart.
struct BarChart {
    /// A label and its count, largest first.
    struct Bar {
        let label: String
        let count: Int
    }

    let bars: [Bar]
    /// The bars' fill, as `#rrggbb`.
    let color: String

    static let width = 520
    private static let rowHeight = 22
    private static let labelWidth = 200
    private static let barHeight = 14

    /// The chart, or a line that says there is nothing to draw.
    func svg() -> String {
        guard let largest = bars.map(\.count).max(), largest > 0 else {
            return "<p class=\"empty\">None.</p>"
        }
        let height = bars.count * Self.rowHeight
        let room = Self.width - Self.labelWidth - 50
        var svg =
            "<svg class=\"chart\" width=\"\(Self.width)\" height=\"\(height)\" viewBox=\"0 0 \(Self.width) \(height)\" "
            + "role=\"img\">"
        for (index, bar) in bars.enumerated() {
            let y = index * Self.rowHeight
            let length = max(2, bar.count * room / largest)
            let label = HTMLText.escaped(IssuesReport.shortened(bar.label, to: 30))  // the full label is in the title
            svg += "<g><title>\(HTMLText.escaped(bar.label)): \(bar.count)</title>"
            svg += "<text x=\"\(Self.labelWidth - 8)\" y=\"\(y + 15)\" text-anchor=\"end\">\(label)</text>"
            svg +=
                "<rect x=\"\(Self.labelWidth)\" y=\"\(y + 4)\" width=\"\(length)\" height=\"\(Self.barHeight)\" "
                + "fill=\"\(color)\"/>"
            svg += "<text x=\"\(Self.labelWidth + length + 6)\" y=\"\(y + 15)\">\(bar.count)</text></g>"
        }
        return svg + "</svg>"
    }
}
