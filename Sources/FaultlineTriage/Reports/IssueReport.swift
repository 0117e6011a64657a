import FaultlineReporting

/// `faultline show <id>`: one issue in depth: how its events spread over users, routes, codes, releases and
/// environments, the server's message or the decoding path, and what led to its latest event.
public struct IssueReport: Hashable, Sendable, Codable {
    /// A value and how many of the issue's events had it.
    public struct Count: Hashable, Sendable, Codable {
        public let value: String
        public let events: Int
    }

    /// A breadcrumb of the latest event.
    public struct Crumb: Hashable, Sendable, Codable {
        public let timestamp: String
        public let category: String?
        public let level: String
        public let message: String?
    }

    /// The issue's latest event.
    public struct Latest: Hashable, Sendable, Codable {
        public let eventID: String
        public let timestamp: String
        public let title: String
        /// The message the server sent with its error, if it sent one.
        public let serverMessage: String?
        /// Where decoding failed, and the decoder's words.
        public let decodingPath: String?
        public let decodingDetail: String?
        /// Oldest first.
        public let breadcrumbs: [Crumb]

        enum CodingKeys: String, CodingKey {
            case timestamp, title, breadcrumbs
            case eventID = "event_id"
            case serverMessage = "server_message"
            case decodingPath = "decoding_path"
            case decodingDetail = "decoding_detail"
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(eventID, forKey: .eventID)
            try container.encode(timestamp, forKey: .timestamp)
            try container.encode(title, forKey: .title)
            try container.encode(serverMessage, forKey: .serverMessage)
            try container.encode(decodingPath, forKey: .decodingPath)
            try container.encode(decodingDetail, forKey: .decodingDetail)
            try container.encode(breadcrumbs, forKey: .breadcrumbs)
        }
    }

    /// The most values listed per distribution.
    static let listed = 10

    public let issue: IssueRow
    public let fingerprint: [String]
    public let users: [Count]
    public let segments: [Count]
    public let routes: [Count]
    public let statuses: [Count]
    public let serverCodes: [Count]
    public let releases: [Count]
    public let environments: [Count]
    public let latest: Latest?
    public let read: ReadCounts

    enum CodingKeys: String, CodingKey {
        case issue, fingerprint, users, segments, routes, statuses, releases, environments, latest, read
        case serverCodes = "server_codes"
    }

    /// The report of `issue` from `scan`, with its latest event decoded in full when it could be read again.
    public init(_ issue: Issue, in scan: LogScan, latestEvent: SentryEvent?) {
        self.issue = IssueRow(
            issue, trendFrom: scan.firstSeen ?? issue.firstSeen, to: scan.lastSeen ?? issue.lastSeen,
            buckets: IssuesReport.trendBuckets)
        fingerprint = issue.fingerprint
        users = Self.counts(issue.users)
        segments = Self.counts(issue.segments)
        routes = Self.counts(issue.routes)
        statuses = Self.counts(issue.statuses)
        serverCodes = Self.counts(issue.serverCodes)
        releases = Self.counts(issue.releases)
        environments = Self.counts(issue.environments)
        latest = latestEvent.map { event in
            let details = event.contexts["faultline"]?.objectValue
            let decoding = details?["decoding"]?.objectValue
            return Latest(
                eventID: event.eventID, timestamp: event.timestamp,
                title: event.exception?.values.last?.value ?? event.message ?? "(no message)",
                serverMessage: details?["server_message"]?.stringValue,
                decodingPath: event.tags["decoding.path"], decodingDetail: decoding?["debug_description"]?.stringValue,
                breadcrumbs: (event.breadcrumbs?.values ?? []).map {
                    Crumb(timestamp: $0.timestamp, category: $0.category, level: $0.level.rawValue, message: $0.message)
                })
        }
        read = scan.counts
    }

    public func encode(to encoder: any Encoder) throws {
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

    /// The issue as the terminal shows it.
    public func text(style: TextStyle) -> String {
        var lines = [
            style.bold("\(issue.id)  \(issue.kind)  \(issue.title)"),
            "\(counted(issue.events, "event")), \(counted(issue.users, "user")), "
                + "first seen \(issue.firstSeen), last seen \(issue.lastSeen)",
            "fingerprint: \(fingerprint.joined(separator: " · "))",
            "",
        ]
        for (name, counts) in [
            ("users", users), ("segments", segments), ("routes", routes), ("statuses", statuses),
            ("server codes", serverCodes), ("releases", releases), ("environments", environments),
        ] where !counts.isEmpty {
            lines.append("\(name): " + counts.map { "\($0.value) (\($0.events))" }.joined(separator: ", "))
        }
        if let latest {
            lines += ["", style.bold("latest event \(latest.eventID) at \(latest.timestamp)"), latest.title]
            if let message = latest.serverMessage { lines.append("server message: \(message)") }
            if let path = latest.decodingPath { lines.append("decoding path: \(path)") }
            if let detail = latest.decodingDetail { lines.append("decoder: \(detail)") }
            if !latest.breadcrumbs.isEmpty {
                lines.append(style.bold("breadcrumbs (last \(min(20, latest.breadcrumbs.count)), oldest first):"))
                for crumb in latest.breadcrumbs.suffix(20) {
                    lines.append(
                        "  \(crumb.timestamp)  \(crumb.level.padding(toLength: 7))  "
                            + "\((crumb.category ?? "-").padding(toLength: 14))  \(crumb.message ?? "")")
                }
            }
        }
        return lines.joined(separator: "\n") + "\n" + ReadCounts.text(read, style: style)
    }

    private static func counts(_ counts: [String: Int]) -> [Count] {
        IssueRow.ranked(counts).prefix(listed).map { Count(value: $0, events: counts[$0] ?? 0) }
    }
}

extension String {
    fileprivate func padding(toLength length: Int) -> String {
        count >= length ? self : self + String(repeating: " ", count: length - count)
    }
}
