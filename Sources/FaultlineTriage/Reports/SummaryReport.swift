import FaultlineLogReading
import FaultlineRecords

/// `faultline summary`: what broke, since when, how much, for how many users, in which releases, and what could
/// not be read.
package struct SummaryReport: Hashable, Sendable, Encodable {
    /// The kinds every summary counts, present even at zero.
    package static let kinds = ["server", "transport", "decoding", "session_expired", "other", "error", "message"]

    package struct Release: Hashable, Sendable, Codable {
        package let release: String
        package let events: Int
    }

    /// The first and last event that passed the filters, RFC 3339 UTC; `null` when there is none.
    package let firstSeen: String?
    package let lastSeen: String?
    package let events: Int
    package let issues: Int
    package let users: Int
    /// Events by `error.kind`.
    package let kinds: [String: Int]
    package let releases: [Release]
    /// The issues with the most events, at most five.
    package let topIssues: [IssueRow]
    /// How many issues each signal flags, when the summary has a window (`--since`); `null` otherwise.
    package let signals: SignalCounts?

    /// How many issues are new, spiking and regressed in the window.
    package struct SignalCounts: Hashable, Sendable, Encodable {
        package let new: Int
        package let spiking: Int
        package let regressed: Int
    }
    package let read: ReadCounts

    enum CodingKeys: String, CodingKey {
        case kinds, releases, read
        case events = "event_count"
        case issues = "issue_count"
        case users = "user_count"
        case firstSeen = "first_seen"
        case lastSeen = "last_seen"
        case topIssues = "top_issues"
        case signals
    }

    /// The summary of a scan.
    package init(_ scan: LogScan) {
        firstSeen = scan.firstSeen.map { RFC3339.string(seconds: $0, precision: .seconds) }
        lastSeen = scan.lastSeen.map { RFC3339.string(seconds: $0, precision: .seconds) }
        events = scan.events
        issues = scan.issues.count
        users = scan.users.count
        var kinds = Dictionary(uniqueKeysWithValues: Self.kinds.map { ($0, 0) })
        kinds.merge(scan.kinds) { $1 }
        self.kinds = kinds
        releases = IssueRow.ranked(scan.releases).map { Release(release: $0, events: scan.releases[$0] ?? 0) }
        let rows = IssuesReport.rows(of: scan, sortedBy: .events)
        topIssues = Array(rows.prefix(5))
        signals =
            scan.window == nil
            ? nil
            : SignalCounts(
                new: rows.filter { $0.signals?.isNew == true }.count,
                spiking: rows.filter { $0.signals?.isSpiking == true }.count,
                regressed: rows.filter { $0.signals?.isRegressed == true }.count)
        read = scan.counts
    }

    package func encode(to encoder: any Encoder) throws {
        try JSONSchemaVersion.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(firstSeen, forKey: .firstSeen)  // null, not absent, when there are no events
        try container.encode(lastSeen, forKey: .lastSeen)
        try container.encode(events, forKey: .events)
        try container.encode(issues, forKey: .issues)
        try container.encode(users, forKey: .users)
        try container.encode(kinds, forKey: .kinds)
        try container.encode(releases, forKey: .releases)
        try container.encode(topIssues, forKey: .topIssues)
        try container.encode(signals, forKey: .signals)
        try container.encode(read, forKey: .read)
    }

    /// The kinds with events: the known ones in ``kinds``' order, then any other an event was tagged with, by name.
    var kindsCounted: [String] {
        let known = Self.kinds.filter { kinds[$0, default: 0] > 0 }
        return known + kinds.keys.filter { !Self.kinds.contains($0) && kinds[$0, default: 0] > 0 }.sorted()
    }

    /// The summary as the terminal shows it. Everything the events said is made safe with ``TerminalText/safe(_:)``.
    package func text(style: TextStyle) -> String {
        guard let firstSeen, let lastSeen else {
            return "No events found.\n" + ReadCounts.text(read, style: style)
        }
        var lines = [
            style.bold(
                "\(counted(events, "event")) in \(counted(issues, "issue")), \(counted(users, "user")) affected"),
            "from \(firstSeen) to \(lastSeen)",
            "",
            "by kind:  " + kindsCounted.map { "\(TerminalText.safe($0)) \(kinds[$0] ?? 0)" }.joined(separator: "  "),
            "releases: "
                + (releases.isEmpty
                    ? "none"
                    : releases.prefix(5).map { "\(TerminalText.safe($0.release)) (\($0.events))" }
                        .joined(separator: ", ")),
            "",
        ]
        if let signals {
            lines.insert(
                "in the window: \(signals.new) new, \(signals.spiking) spiking, \(signals.regressed) regressed"
                    + " (faultline incident lists them)", at: lines.count - 1)
        }
        lines.append(IssuesReport.table(topIssues, style: style))
        lines.append(style.dim("Run 'faultline issues' for all issues, 'faultline show <id>' for one."))
        return lines.joined(separator: "\n") + "\n" + ReadCounts.text(read, style: style)
    }
}
