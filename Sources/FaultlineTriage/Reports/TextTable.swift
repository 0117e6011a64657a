/// Rows of text in aligned columns, measured in terminal cells, fitted to the terminal's width.
///
/// Every cell is made safe with ``TerminalText/safe(_:)``. When the rows are wider than ``TextStyle/width``, the
/// flexible column (an issue's title) gives up cells down to ``minimumFlexibleWidth``, its cells cut with `…`; if that
/// is not enough, whole columns are left out in ``dropOrder``, one at a time, before the flexible column shrinks further.
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

    /// Leaves `column` out whatever the width.
    mutating func leaveOut(_ column: Int) {
        hidden.insert(column)
    }

    func render(style: TextStyle) -> String {
        let cells = ([header] + rows).map { $0.map(TerminalText.safe) }
        var widths = header.indices.map { column in cells.map { TerminalText.width($0[column]) }.max() ?? 0 }
        var shown = header.indices.filter { !hidden.contains($0) }
        if let available = style.width { fit(&widths, &shown, into: available) }
        func line(_ row: [String]) -> String {
            shown.map { column in
                var cell = row[column]
                if TerminalText.width(cell) > widths[column] {
                    cell = TerminalText.truncated(cell, toWidth: widths[column])
                }
                let padding = String(repeating: " ", count: widths[column] - TerminalText.width(cell))
                return rightAligned.contains(column) ? padding + cell : cell + padding
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }
        return ([style.bold(line(cells[0]))] + cells.dropFirst().map(line)).joined(separator: "\n")
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
