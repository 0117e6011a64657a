import FaultlineLogReading
import FaultlineRecords

/// `faultline report --html`: one self-contained page, for sharing the picture of an incident with people who
/// are not at a terminal. It draws the timeline, the events by kind, route, server code, status, user and release,
/// and the top issues with their trends, in inline SVG and CSS: no script, nothing fetched, so it opens offline and
/// from a mail attachment.
package struct HTMLReport: Sendable {
    /// The colour of each chart's bars, by the chart's name (the `id` of its section), so that a rendering of the
    /// page can be checked chart by chart.
    package static let chartColors = [
        "timeline": "#e8590c", "kinds": "#1c7ed6", "routes": "#2f9e44", "codes": "#ae3ec9", "statuses": "#f59f00",
        "users": "#0c8599", "releases": "#d6336c",
    ]
    /// The most bars a breakdown shows, and the most issues the table lists.
    static let maximumBars = 10
    static let maximumIssues = 25

    let summary: SummaryReport
    /// The incident signals, when the report has a window (`--since`).
    let incident: IncidentReport?
    let timeline: TimelineReport
    let issues: [IssueRow]
    let breakdowns: [(id: String, heading: String, counts: [String: Int])]
    let generatedAt: String

    /// The report of `scan`, stamped as made at `generatedAt` (seconds since 1970).
    package init(_ scan: LogScan, generatedAt: Double) {
        summary = SummaryReport(scan)
        incident = scan.window == nil ? nil : IncidentReport(scan)
        timeline = TimelineReport(scan, from: scan.window?.start, to: scan.window?.end)
        issues = Array(IssuesReport.rows(of: scan, sortedBy: .events).prefix(Self.maximumIssues))
        let all = scan.issues.values
        func total(_ counts: KeyPath<Issue, [String: Int]>) -> [String: Int] {
            all.reduce(into: [:]) { $0.merge($1[keyPath: counts], uniquingKeysWith: +) }
        }
        breakdowns = [
            ("kinds", "By kind", scan.kinds),
            ("routes", "Routes", total(\.routes)),
            ("codes", "Server codes", total(\.serverCodes)),
            ("statuses", "HTTP statuses", total(\.statuses)),
            ("users", "Users", total(\.users)),
            ("releases", "Releases", scan.releases),
        ]
        self.generatedAt = RFC3339.string(seconds: generatedAt, precision: .seconds)
    }

    /// The page.
    package func html() -> String {
        var page = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Faultline report</title>
            <style>\(Self.styleSheet)</style>
            </head>
            <body>
            <h1>Faultline report</h1>

            """
        page += "<p class=\"headline\">\(HTMLText.escaped(headline))</p>\n"
        page +=
            "<p class=\"note read\">\(readNote)</p>\n"
        if let incident, !incident.flagged.isEmpty {
            page += section(
                id: "signals", heading: "New, spiking and regressed in the window",
                note: "from \(incident.window.start) to \(incident.window.end), against the "
                    + "\(IncidentReport.number(incident.window.baselineHours)) hours before",
                body: signalsTable(incident.flagged))
        }
        if summary.events > 0 {
            page += section(
                id: "timeline", heading: "Events over time",
                note: "buckets of \(counted(timeline.bucketMinutes, "minute"))",
                body: ColumnChart(buckets: timeline.buckets, color: Self.chartColors["timeline"] ?? "").svg())
            page += "<div class=\"grid\">\n"
            for breakdown in breakdowns {
                page += section(
                    id: breakdown.id, heading: breakdown.heading, note: Self.moreNote(breakdown.counts),
                    body: BarChart(bars: Self.bars(breakdown.counts), color: Self.chartColors[breakdown.id] ?? "").svg()
                )
            }
            page += "</div>\n"
            page += section(id: "issues", heading: "Top issues", note: issuesNote, body: issuesTable())
        }
        page += "<footer>Made by <code>faultline report --html</code> at \(generatedAt).</footer>\n</body>\n</html>\n"
        return page
    }

    private var headline: String {
        guard let firstSeen = summary.firstSeen, let lastSeen = summary.lastSeen else { return "No events found." }
        return "\(counted(summary.events, "event")) in \(counted(summary.issues, "issue")), "
            + "\(counted(summary.users, "user")) affected, from \(firstSeen) to \(lastSeen)"
    }

    /// What was read and skipped, its lines escaped one by one.
    private var readNote: String {
        ReadCounts.text(summary.read, style: TextStyle(colors: false)).split(
            separator: "\n", omittingEmptySubsequences: false
        )
        .map { HTMLText.escaped(String($0)) }.joined(separator: "\n")
    }

    private var issuesNote: String {
        summary.issues > issues.count ? "the \(issues.count) with the most events of \(summary.issues)" : ""
    }

    private func section(id: String, heading: String, note: String, body: String) -> String {
        let noteLine = note.isEmpty ? "" : "<p class=\"note\">\(HTMLText.escaped(note))</p>"
        return "<section id=\"\(id)\"><h2>\(heading)</h2>\(noteLine)\n\(body)\n</section>\n"
    }

    private func issuesTable() -> String {
        var table = "<table>\n<tr>"
        for heading in [
            "ID", "Kind", "Issue", "Route", "Status", "Code", "Events", "Users", "Last seen (UTC)", "Trend",
        ] {
            table += "<th>\(heading)</th>"
        }
        table += "</tr>\n"
        for row in issues {
            let title = TableTitle(row.title, route: row.route)
            let cells = [
                row.kind, IssuesReport.shortened(title.point, to: 160), title.route ?? "–", row.status ?? "–",
                row.serverCode ?? "–",
            ].map { "<td>\(HTMLText.escaped($0))</td>" }
            table += "<tr><td><code>\(row.id)</code></td>" + cells.joined()
            table += "<td class=\"number\">\(row.events)</td><td class=\"number\">\(row.users)</td>"
            table +=
                "<td class=\"time\">\(UTCTime.minute(row.lastSeen))</td><td>\(TrendChart(counts: row.trend).svg())</td></tr>\n"
        }
        return table + "</table>"
    }

    private func signalsTable(_ rows: [IssueRow]) -> String {
        var table = "<table>\n<tr>"
        for heading in ["ID", "Signals", "Issue", "Events", "Users", "Per hour (before → now)", "Since (UTC)"] {
            table += "<th>\(heading)</th>"
        }
        table += "</tr>\n"
        for row in rows {
            guard let signals = row.signals else { continue }
            let rates =
                "\(IncidentReport.number(signals.spike.baselineRate)) → \(IncidentReport.number(signals.spike.windowRate))"
            table += "<tr><td><code>\(row.id)</code></td>"
            table += "<td>\(HTMLText.escaped(signals.names.joined(separator: ", ")))</td>"
            table += "<td>\(HTMLText.escaped(IssuesReport.shortened(row.title, to: 160)))</td>"
            table += "<td class=\"number\">\(row.events)</td>"
            table += "<td class=\"number\">\(signals.users) of \(signals.usersInWindow)</td>"
            table += "<td class=\"number\">\(HTMLText.escaped(rates))</td>"
            table += "<td class=\"time\">\(signals.since.map(UTCTime.minute) ?? "–")</td></tr>\n"
        }
        return table + "</table>"
    }

    /// The largest counts, largest first, ties by label.
    private static func bars(_ counts: [String: Int]) -> [BarChart.Bar] {
        IssueRow.ranked(counts).prefix(maximumBars).map { BarChart.Bar(label: $0, count: counts[$0] ?? 0) }
    }

    private static func moreNote(_ counts: [String: Int]) -> String {
        counts.count > maximumBars ? "the \(maximumBars) largest of \(counts.count)" : ""
    }

    private static let styleSheet = """
        body { font: 14px/1.4 system-ui, sans-serif; color: #212529; margin: 24px; max-width: 1100px; }
        h1 { font-size: 22px; margin: 0 0 4px; }
        h2 { font-size: 16px; margin: 0 0 4px; }
        .headline { font-size: 16px; font-weight: 600; margin: 0; }
        .note, .empty, footer { color: #6c757d; margin: 0 0 8px; }
        section { margin: 20px 0; }
        .grid { display: grid; grid-template-columns: repeat(2, 540px); column-gap: 20px; }
        .grid section { margin: 12px 0; }
        svg.chart text { font-size: 12px; fill: #495057; }
        table { border-collapse: collapse; width: 100%; }
        th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #dee2e6; vertical-align: middle; }
        td.number { text-align: right; }
        td.time { white-space: nowrap; }
        .read { white-space: pre-line; }
        footer { margin-top: 24px; }
        """
}

/// `faultline report --json`: what the page shows, as data: the summary, the incident signals when there is a window
/// (`null` otherwise), the timeline, the top issues, and the events by kind, route, server code, status, user and
/// release.
extension HTMLReport: Encodable {
    enum CodingKeys: String, CodingKey {
        case summary, incident, timeline, issues, breakdowns
        case generatedAt = "generated_at"
    }

    package func encode(to encoder: any Encoder) throws {
        try JSONSchemaVersion.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(generatedAt, forKey: .generatedAt)
        try container.encode(summary, forKey: .summary)
        try container.encode(incident, forKey: .incident)
        try container.encode(timeline, forKey: .timeline)
        try container.encode(issues, forKey: .issues)
        try container.encode(
            Dictionary(uniqueKeysWithValues: breakdowns.map { ($0.id, $0.counts) }), forKey: .breakdowns)
    }
}
