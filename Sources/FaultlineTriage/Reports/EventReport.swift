import FaultlineLogReading
import FaultlineRecords
import FaultlineReporting

/// `faultline show <event id>`: one event in full, with the issue it belongs to.
package struct EventReport: Hashable, Sendable, Encodable {
    /// The issue's id as shown, and its kind.
    package let issue: String
    package let kind: String
    package let event: EventDetail
    /// What the event was grouped by, value by value, as Sentry's "event grouping information" shows it.
    package let grouping: GroupingExplanation

    enum CodingKeys: String, CodingKey {
        case issue, kind, event, grouping
    }

    /// The report of the event `record` read, decoded in full as `event`, among the issues of `scan`; `grouping`
    /// is what it was grouped by.
    package init(
        _ record: EventRecord, decoded event: SentryEvent, grouping: GroupingExplanation, in scan: LogScan
    ) {
        issue = scan.issues[record.grouping].map(scan.shortID(of:)) ?? IssueID.of(record.grouping)
        kind = record.kind
        self.event = EventDetail(event, title: record.title)
        self.grouping = grouping
    }

    package func encode(to encoder: any Encoder) throws {
        try JSONSchemaVersion.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(issue, forKey: .issue)
        try container.encode(kind, forKey: .kind)
        try container.encode(event, forKey: .event)
        try container.encode(grouping, forKey: .grouping)
    }

    /// The event as the terminal shows it, after the issue it belongs to.
    package func text(style: TextStyle) -> String {
        let header = "issue \(issue) · \(TerminalText.safe(kind)) · 'faultline events \(issue)' lists its events"
        let lines =
            [header] + event.lines(heading: "event", style: style) + ["", style.bold("grouped by")] + grouping.lines
        return lines.joined(separator: "\n") + "\n"
    }
}
