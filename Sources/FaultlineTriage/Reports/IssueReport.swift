import FaultlineLogReading
import FaultlineRecords
import FaultlineReporting

/// `faultline show <id>`: one issue in depth: how its events spread over users, routes, codes, releases and
/// environments, the server's message or the decoding path, and what led to its latest event.
package struct IssueReport: Hashable, Sendable, Encodable {
    /// A value and how many of the issue's events had it.
    package struct Count: Hashable, Sendable, Codable {
        package let value: String
        package let events: Int
    }

    /// The most values listed per distribution.
    static let listed = 10

    package let issue: IssueRow
    package let fingerprint: [String]
    package let users: [Count]
    package let segments: [Count]
    package let routes: [Count]
    package let statuses: [Count]
    package let serverCodes: [Count]
    package let releases: [Count]
    package let environments: [Count]
    package let latest: EventDetail?
    package let read: ReadCounts

    enum CodingKeys: String, CodingKey {
        case issue, fingerprint, users, segments, routes, statuses, releases, environments, latest, read
        case serverCodes = "server_codes"
    }

    /// The report of `issue` from `scan`, with its latest event decoded in full when it could be read again.
    package init(_ issue: Issue, in scan: LogScan, latestEvent: SentryEvent?) {
        self.issue = IssueRow(
            issue, in: scan, trendFrom: scan.window?.start ?? scan.firstSeen ?? issue.firstSeen,
            to: scan.window.map { $0.end.nextDown } ?? scan.lastSeen ?? issue.lastSeen,
            buckets: IssuesReport.trendBuckets)
        fingerprint = issue.fingerprint
        users = Self.counts(issue.users)
        segments = Self.counts(issue.segments)
        routes = Self.counts(issue.routes)
        statuses = Self.counts(issue.statuses)
        serverCodes = Self.counts(issue.serverCodes)
        releases = Self.counts(issue.releases)
        environments = Self.counts(issue.environments)
        latest = latestEvent.map { EventDetail($0, title: issue.latest.title) }
        read = scan.counts
    }

    package func encode(to encoder: any Encoder) throws {
        try JSONSchemaVersion.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(issue, forKey: .issue)
        try container.encode(fingerprint, forKey: .fingerprint)
        try container.encode(users, forKey: .users)
        try container.encode(segments, forKey: .segments)
        try container.encode(routes, forKey: .routes)
        try container.encode(statuses, forKey: .statuses)
        try container.encode(serverCodes, forKey: .serverCodes)
        try container.encode(releases, forKey: .releases)
        try container.encode(environments, forKey: .environments)
        try container.encode(latest, forKey: .latest)  // null when the event could not be read again
        try container.encode(read, forKey: .read)
    }

    /// The issue as the terminal shows it. Everything the events said is made safe with ``TerminalText/safe(_:)``.
    package func text(style: TextStyle) -> String {
        let safe = TerminalText.safe
        var lines = [
            style.bold("\(issue.id)  \(safe(issue.kind))  \(safe(issue.title))"),
            "\(counted(issue.events, "event")), \(counted(issue.users, "user")), "
                + "first seen \(issue.firstSeen), last seen \(issue.lastSeen)",
            "fingerprint: \(fingerprint.map(safe).joined(separator: " · "))",
            "requests: \(safe(issue.ofRequests))",
        ]
        if let signals = issue.signals { lines += Self.lines(of: signals) }
        lines.append("")
        for (name, counts) in [
            ("users", users), ("segments", segments), ("routes", routes), ("statuses", statuses),
            ("server codes", serverCodes), ("releases", releases), ("environments", environments),
        ] where !counts.isEmpty {
            if name == "releases", let signals = issue.signals {
                lines.append(Self.releaseLine(counts, signals.releases))
                continue
            }
            lines.append("\(name): " + counts.map { "\(safe($0.value)) (\($0.events))" }.joined(separator: ", "))
        }
        if let latest { lines += [""] + latest.lines(heading: "latest event", style: style) }
        return lines.joined(separator: "\n") + "\n" + ReadCounts.text(read, style: style)
    }

    /// With a window, one line for the issue's releases: its events in the window, and up to the window's end with
    /// its share of the release's events, newest release first.
    private static func releaseLine(_ inWindow: [Count], _ shares: [IssueSignals.ReleaseShare]) -> String {
        let windowEvents = Dictionary(uniqueKeysWithValues: inWindow.map { ($0.value, $0.events) })
        let releases = shares.map { share -> String in
            let percent = Int((share.share * 100).rounded())
            return "\(TerminalText.safe(share.release)) (\(windowEvents[share.release] ?? 0) in the window; "
                + "\(share.events) up to its end, \(percent)% of the release's events)"
        }
        return "releases: " + releases.joined(separator: ", ")
    }

    /// What the window says of the issue: its signals and since when, its rates, whom it hit.
    private static func lines(of signals: IssueSignals) -> [String] {
        let spike = signals.spike
        let names = signals.names.isEmpty ? "steady" : signals.names.joined(separator: ", ")
        let since = signals.since.map { " since \($0)" } ?? ""
        let rates = "\(IncidentReport.number(spike.baselineRate)) → \(IncidentReport.number(spike.windowRate))"
        let factor = spike.factor.map { " (\(IncidentReport.number($0))×)" } ?? ""
        let segments = IssueRow.ranked(signals.segments).map { segment -> String in
            "\(TerminalText.safe(segment)) (\(signals.segments[segment] ?? 0))"
        }
        return [
            "in the window: \(names)\(since); \(rates) events an hour\(factor)",
            "hit \(signals.users) of the \(counted(signals.usersInWindow, "user")) seen in the window"
                + (segments.isEmpty ? "" : "; segments " + segments.joined(separator: ", ")),
        ]
    }

    private static func counts(_ counts: [String: Int]) -> [Count] {
        IssueRow.ranked(counts).prefix(listed).map { Count(value: $0, events: counts[$0] ?? 0) }
    }
}
