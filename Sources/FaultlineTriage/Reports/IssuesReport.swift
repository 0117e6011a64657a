import FaultlineLogReading

/// `faultline issues`: one row per issue.
package struct IssuesReport: Hashable, Sendable, Codable {
    /// How rows are ordered.
    package enum Order: String, Sendable, CaseIterable {
        /// Most events first.
        case events
        /// Most users first.
        case users
        /// Most recently seen first.
        case recent
    }

    /// Buckets in a trend.
    static let trendBuckets = 12

    package private(set) var issues: [IssueRow]
    package let events: Int
    package let read: ReadCounts
    /// Issues left out by ``limited(to:)``, after the ones listed.
    package private(set) var leftOut = 0

    enum CodingKeys: String, CodingKey {
        case issues, read
        case issueCount = "issue_count"
        case events = "event_count"
        case leftOut = "left_out"
    }

    /// The issues of a scan in `order`.
    package init(_ scan: LogScan, order: Order) {
        issues = Self.rows(of: scan, sortedBy: order)
        events = scan.events
        read = scan.counts
    }

    package func encode(to encoder: any Encoder) throws {
        try JSONSchemaVersion.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(issues.count + leftOut, forKey: .issueCount)
        try container.encode(events, forKey: .events)
        try container.encode(issues, forKey: .issues)
        try container.encode(leftOut, forKey: .leftOut)
        try container.encode(read, forKey: .read)
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        issues = try container.decode([IssueRow].self, forKey: .issues)
        events = try container.decode(Int.self, forKey: .events)
        leftOut = try container.decodeIfPresent(Int.self, forKey: .leftOut) ?? 0
        read = try container.decode(ReadCounts.self, forKey: .read)
    }

    /// The report with its first `count` issues only; the others are counted in ``leftOut``.
    package func limited(to count: Int) -> IssuesReport {
        var report = self
        report.issues = Array(issues.prefix(count))
        report.leftOut += issues.count - report.issues.count
        return report
    }

    /// The report with only the issues whose signals pass `isKept` (issues without signals are left out), and only
    /// their events counted.
    package func keeping(_ isKept: (IssueSignals) -> Bool) -> IssuesReport {
        let kept = issues.filter { $0.signals.map(isKept) ?? false }
        return IssuesReport(issues: kept, events: kept.reduce(0) { $0 + $1.events }, read: read)
    }

    private init(issues: [IssueRow], events: Int, read: ReadCounts) {
        self.issues = issues
        self.events = events
        self.read = read
    }

    /// The issues as the terminal shows them, with a footer that names the drill-down command.
    package func text(style: TextStyle) -> String {
        guard !issues.isEmpty else { return "No issues found.\n" + ReadCounts.text(read, style: style) }
        let listed =
            leftOut > 0
            ? "\(issues.count) of \(counted(issues.count + leftOut, "issue")) listed (--limit)"
            : counted(issues.count, "issue")
        return Self.table(issues, style: style) + "\n"
            + style.dim("\(listed), \(counted(events, "event")). Run 'faultline show <id>' for one.") + "\n"
            + ReadCounts.text(read, style: style)
    }

    /// The issues as CSV: a header row, then one row per issue in the report's order, with the fields of `--json`
    /// (releases and signals joined with `;`, empty where an issue does not say).
    package func csv() -> String {
        CSV.row([
            "id", "kind", "title", "route", "status", "server_code", "events", "users", "route_requests",
            "failed_requests", "requests_estimated", "first_seen", "last_seen", "releases", "signals",
        ])
            + issues.map { row in
                CSV.row([
                    row.id, row.kind, row.title, row.route, row.status, row.serverCode, String(row.events),
                    String(row.users), row.routeRequests.map(String.init), row.failedRequests.map(String.init),
                    String(row.requestsEstimated), row.firstSeen, row.lastSeen, row.releases.joined(separator: ";"),
                    row.signals?.names.joined(separator: ";"),
                ])
            }.joined()
    }

    static func rows(of scan: LogScan, sortedBy order: Order) -> [IssueRow] {
        let start = scan.window?.start ?? scan.firstSeen ?? 0
        let end = scan.window.map { $0.end.nextDown } ?? scan.lastSeen ?? 0
        let issues = scan.issues.values.sorted { left, right in
            switch order {
            case .events: (left.events, left.lastSeen, right.id) > (right.events, right.lastSeen, left.id)
            case .users: (left.users.count, left.events, right.id) > (right.users.count, right.events, left.id)
            case .recent: (left.lastSeen, left.events, right.id) > (right.lastSeen, right.events, left.id)
            }
        }
        return issues.map {
            IssueRow($0, in: scan, trendFrom: start, to: end, buckets: trendBuckets)
        }
    }

    /// The issues' table, with a SIGNALS column when an issue has one, and an OF REQUESTS column (its share of its
    /// route's requests) when one's route has request counts: titles whole where the width has no limit (a pipe, a
    /// file), said without the method and route the ROUTE column shows (``TableTitle``). On a narrow terminal the
    /// title gives up cells first, down to half the width (48 cells at most), cut in its middle; then the first-seen, releases, trend,
    /// code, status, last-seen, kind, route and of-requests columns are left out in that order.
    static func table(_ rows: [IssueRow], style: TextStyle) -> String {
        var table = TextTable(
            header: [
                "ID", "KIND", "ISSUE", "ROUTE", "STATUS", "CODE", "EVENTS", "USERS", "FIRST SEEN (UTC)",
                "LAST SEEN (UTC)", "RELEASES", "TREND", "SIGNALS", "OF REQUESTS",
            ],
            rightAligned: [6, 7, 13], flexible: 2, dropOrder: [8, 10, 11, 5, 4, 9, 1, 3, 13])
        table.minimumFlexibleWidth = minimumTitleWidth(style.width)
        for row in rows {
            let releases = row.releases.first.map { row.releases.count > 1 ? "\($0) +\(row.releases.count - 1)" : $0 }
            let signals: String = row.signals?.names.joined(separator: ", ") ?? ""
            let title = TableTitle(row.title, route: row.route)
            let cells: [String] = [
                row.id, row.kind, title.point, title.route ?? "-", row.status ?? "-",
                row.serverCode ?? "-", String(row.events), String(row.users), UTCTime.minute(row.firstSeen),
                UTCTime.minute(row.lastSeen), releases ?? "-", row.sparkline, signals, row.shareOfRequests,
            ]
            table.append(cells, keepingHead: title.head)
        }
        if !rows.contains(where: { $0.signals?.names.isEmpty == false }) { table.leaveOut(12) }
        if !rows.contains(where: { $0.routeRequests != nil }) { table.leaveOut(13) }
        if !rows.contains(where: { $0.route != nil }) { table.leaveOut(3) }
        return table.render(style: style)
    }

    /// The narrowest an issue table's title column gets before other columns are left out: half a terminal `width`
    /// cells wide, up to 48 cells.
    static func minimumTitleWidth(_ width: Int?) -> Int {
        max(24, min(48, (width ?? 0) / 2))
    }

    /// `text` made safe for a terminal (on one line) and cut to `width` cells with an ellipsis.
    static func shortened(_ text: String, to width: Int) -> String {
        TerminalText.truncated(TerminalText.safe(text), toWidth: width)
    }
}
