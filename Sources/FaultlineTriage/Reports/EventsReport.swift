import FaultlineLogReading
import FaultlineRecords

/// `faultline events <id>`: an issue's events, newest first, one row each: time, event id, user, release, route,
/// status and title; as a table, JSON, JSON lines or CSV.
package struct EventsReport: Hashable, Sendable, Encodable {
    /// The issue's id as shown, and its title.
    package let issue: String
    package let title: String
    /// Newest first.
    package let events: [EventLine]
    /// The issue's events in the scan that are not listed, those its app's reporter suppressed included.
    package let leftOut: Int
    package let read: ReadCounts

    enum CodingKeys: String, CodingKey {
        case issue, title, events, read
        case leftOut = "left_out"
    }

    /// The report of `issue` from `scan`, listing `records` (its latest events, in any order).
    package init(_ issue: Issue, in scan: LogScan, records: [EventRecord]) {
        self.issue = scan.shortID(of: issue)
        title = issue.latest.title
        events = records.sorted { $0.timestamp > $1.timestamp }.map(EventLine.init)
        leftOut = max(0, issue.events - records.count)
        read = scan.counts
    }

    package func encode(to encoder: any Encoder) throws {
        try JSONSchemaVersion.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(issue, forKey: .issue)
        try container.encode(title, forKey: .title)
        try container.encode(events, forKey: .events)
        try container.encode(leftOut, forKey: .leftOut)
        try container.encode(read, forKey: .read)
    }

    /// The events as a table fitted to the terminal, the title giving up cells first.
    package func text(style: TextStyle) -> String {
        var table = TextTable(
            header: ["TIME (UTC)", "EVENT ID", "USER", "RELEASE", "ROUTE", "STATUS", "TITLE"], rightAligned: [5],
            flexible: 6, dropOrder: [3, 4, 2, 5])
        for event in events {
            let title = TableTitle(event.title, route: event.route)
            table.append(
                [
                    event.timestamp, event.eventID, event.user ?? "-", event.release ?? "-", title.route ?? "-",
                    event.status ?? "-", title.point,
                ], keepingHead: title.head)
        }
        let more = leftOut > 0 ? "; \(counted(leftOut, "event")) not listed (--limit to list more)" : ""
        return style.bold("\(issue)  \(TerminalText.safe(title))") + "\n" + table.render(style: style) + "\n"
            + "\(counted(events.count, "event")) listed, newest first\(more). "
            + "Run 'faultline show <event id>' for one.\n" + ReadCounts.text(read, style: style)
    }

    /// The events as CSV: a header row, then one row per event, newest first.
    package func csv() -> String {
        CSV.row(["timestamp", "event_id", "kind", "status", "server_code", "route", "user", "release", "title"])
            + events.map { event in
                CSV.row([
                    event.timestamp, event.eventID, event.kind, event.status, event.serverCode, event.route,
                    event.user, event.release, event.title,
                ])
            }.joined()
    }
}
