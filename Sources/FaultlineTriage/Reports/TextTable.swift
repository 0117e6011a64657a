/// Rows of text in aligned columns, measured in terminal cells, fitted to the terminal's width.
///
/// Every cell is made safe with ``TerminalText/safe(_:)``. When the rows are wider than ``TextStyle/width``, the
/// flexible column (an issue's title) gives up cells down to ``minimumFlexibleWidth``, its cells cut in the middle
/// with `…` (keeping the head ``append(_:keepingHead:)`` was given); if that is not enough, whole columns are left out
/// in ``dropOrder``, one at a time, before the flexible column shrinks further. Other cells are cut at their end.
struct TextTable {
    let header: [String]
    var rows: [[String]] = []
    /// Columns aligned to the right (numbers).
    let rightAligned: Set<Int>
    /// The column that shrinks to fit, if any.
    var flexible: Int?
    /// Columns that may be left out to fit, the first to go first.
    var dropOrder: [Int] = []
    /// The narrowest the flexible column gets before other columns are left out.
    var minimumFlexibleWidth = 24
    /// Columns never shown.
    var hidden: Set<Int> = []
    /// For each row, the cells at the start of its flexible cell that a cut keeps whole.
    private var heads: [Int] = []

    init(header: [String], rightAligned: Set<Int>, flexible: Int? = nil, dropOrder: [Int] = []) {
        self.header = header
        self.rightAligned = rightAligned
        self.flexible = flexible
        self.dropOrder = dropOrder
    }

    /// Adds `row`, whose flexible cell keeps its first `head` cells whole when it is cut.
    mutating func append(_ row: [String], keepingHead head: Int = 0) {
        heads += Array(repeating: 0, count: rows.count - heads.count) + [head]
        rows.append(row)
    }

    /// Leaves `column` out whatever the width.
    mutating func leaveOut(_ column: Int) {
        hidden.insert(column)
    }

    /// The narrowest and widest each column gets, whatever its cells (`tail`'s columns, fitted to the first events
    /// while later ones stream).
    var minimumWidths: [Int: Int] = [:]
    var maximumWidths: [Int: Int] = [:]

    func render(style: TextStyle) -> String {
        let layout = layout(width: style.width)
        let rowLines = rows.enumerated().map { index, row in
            layout.line(row, head: index < heads.count ? heads[index] : 0)
        }
        return ([style.bold(layout.line(header, head: 0))] + rowLines).joined(separator: "\n")
    }

    /// Which columns the table shows in `width` cells (all but the hidden ones when `nil`), and how wide.
    func layout(width available: Int?) -> Layout {
        let cells = ([header] + rows).map { $0.map(TerminalText.safe) }
        var widths = header.indices.map { column in
            let widest = cells.map { TerminalText.width($0[column]) }.max() ?? 0
            return min(maximumWidths[column] ?? .max, max(minimumWidths[column] ?? 0, widest))
        }
        var shown = header.indices.filter { !hidden.contains($0) }
        if let available { fit(&widths, &shown, into: available) }
        return Layout(shown: shown, widths: widths, flexible: flexible, rightAligned: rightAligned)
    }

    /// The columns a table shows and their widths: how its lines are cut and padded.
    struct Layout: Sendable {
        let shown: [Int]
        var widths: [Int]
        let flexible: Int?
        let rightAligned: Set<Int>
        /// Whether a cell wider than its column is cut; when not, it pushes the cells after it along.
        var cutsCells = true

        /// The cells other than the flexible one take, with the spaces between columns.
        var fixedWidth: Int {
            shown.filter { $0 != flexible }.reduce(0) { $0 + widths[$1] + 2 }
        }

        /// `row` in these columns, made safe; its flexible cell, when cut, keeps its first `head` cells whole.
        func line(_ row: [String], head: Int) -> String {
            shown.map { column in
                var cell = TerminalText.safe(row[column])
                if cutsCells, TerminalText.width(cell) > widths[column] {
                    cell =
                        column == flexible
                        ? TerminalText.truncatedInMiddle(cell, toWidth: widths[column], keepingHead: head)
                        : TerminalText.truncated(cell, toWidth: widths[column])
                }
                guard column != shown.last || rightAligned.contains(column) else { return cell }
                let padding = String(repeating: " ", count: max(0, widths[column] - TerminalText.width(cell)))
                return rightAligned.contains(column) ? padding + cell : cell + padding
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }
    }

    /// Narrows the flexible column and leaves out columns until the shown ones fit in `available` cells.
    private func fit(_ widths: inout [Int], _ shown: inout [Int], into available: Int) {
        func total() -> Int { shown.reduce(0) { $0 + widths[$1] } + 2 * (shown.count - 1) }
        var droppable = dropOrder[...]
        while total() > available {
            let overflow = total() - available
            if let flexible, widths[flexible] - overflow >= minimumFlexibleWidth {
                widths[flexible] -= overflow
            } else if let column = droppable.popFirst() {
                shown.removeAll { $0 == column }
            } else {
                if let flexible { widths[flexible] = max(1, widths[flexible] - overflow) }
                return
            }
        }
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
