/// The columns of `faultline tail`: a header, then one line per event, each field at the same place on every line
/// whatever the event's kind, so that the lines read down as a table while they stream.
///
/// The widths fit the first events printed (the latest, before `-f` follows), with a floor per column. On a terminal of
/// known width they are capped too, and a later event's longer field is cut to its column's width; elsewhere (a
/// pipe, a file) nothing is cut. The title, last, takes what is left of a terminal of
/// known width (at least half of it: the kind, user, code, status and route columns go first), cut in its middle,
/// and is said without the method and route its ROUTE column shows (``TableTitle``).
package struct TailColumns: Sendable {
    private static let header = ["TIME (UTC)", "KIND", "STATUS", "CODE", "ROUTE", "USER", "TITLE"]
    private let layout: TextTable.Layout

    /// Columns for a terminal `width` cells wide (`nil`: no limit) that fit `lines`.
    package init(fitting lines: [EventLine], width: Int?) {
        var table = TextTable(
            header: Self.header, rightAligned: [], flexible: 6, dropOrder: [1, 5, 3, 2, 4])
        table.minimumWidths = [1: 9, 3: 5, 4: 16, 5: 8]
        if width != nil { table.maximumWidths = [1: 15, 3: 10, 4: 32, 5: 24] }
        table.minimumFlexibleWidth = IssuesReport.minimumTitleWidth(width)
        for line in lines { table.append(Self.cells(line).cells) }
        var layout = table.layout(width: width)
        layout.widths[6] = width.map { max(8, $0 - layout.fixedWidth) } ?? 0
        layout.cutsCells = width != nil
        self.layout = layout
    }

    /// The header line.
    package func header(style: TextStyle) -> String {
        style.bold(layout.line(Self.header, head: 0))
    }

    /// `line` in these columns, `-` for what it did not say, on one line however the event's text runs: control
    /// characters are shown escaped.
    package func text(_ line: EventLine, style: TextStyle) -> String {
        let (cells, head) = Self.cells(line)
        let text = layout.line(cells, head: head)
        return style.dim(String(text.prefix(line.timestamp.count))) + text.dropFirst(line.timestamp.count)
    }

    private static func cells(_ line: EventLine) -> (cells: [String], head: Int) {
        let title = TableTitle(line.title, route: line.route)
        let cells = [
            line.timestamp, line.kind, line.status ?? "-", line.serverCode ?? "-", title.route ?? "-", line.user ?? "-",
            title.point,
        ]
        return (cells, title.head)
    }
}
