/// Rows of text in aligned columns, padded by their visible width (a sparkline block counts as one column).
struct TextTable {
    let header: [String]
    var rows: [[String]] = []
    /// Columns aligned to the right (numbers).
    let rightAligned: Set<Int>

    func render(style: TextStyle) -> String {
        let widths = header.indices.map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return rightAligned.contains(column) ? padding + cell : cell + padding
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }
        return ([style.bold(line(header))] + rows.map(line)).joined(separator: "\n")
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
