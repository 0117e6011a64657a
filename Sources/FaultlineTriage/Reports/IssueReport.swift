import FaultlineLogReading
import FaultlineReporting

/// `faultline show <id>`: one issue in depth: how its events spread over users, routes, codes, releases and
/// environments, the server's message or the decoding path, and what led to its latest event.
public struct IssueReport: Hashable, Sendable, Encodable {
    /// A value and how many of the issue's events had it.
    public struct Count: Hashable, Sendable, Codable {
        public let value: String
        public let events: Int
    }

    /// A breadcrumb of the latest event, with the request an `http` breadcrumb records: its method, URL and status.
    public struct Crumb: Hashable, Sendable, Encodable {
        public let timestamp: String
        public let category: String?
        public let level: String
        public let message: String?
        public let method: String?
        public let url: String?
        public let statusCode: Int?

        enum CodingKeys: String, CodingKey {
            case timestamp, category, level, message, method, url
            case statusCode = "status_code"
        }

        init(_ breadcrumb: Breadcrumb) {
            timestamp = breadcrumb.timestamp
            category = breadcrumb.category
            level = breadcrumb.level.rawValue
            message = breadcrumb.message
            method = breadcrumb.data?["method"]?.stringValue
            url = breadcrumb.data?["url"]?.stringValue
            statusCode =
                switch breadcrumb.data?["status_code"] {
                case .int(let status): status
                case .string(let text): Int(text)
                default: nil
                }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(timestamp, forKey: .timestamp)
            try container.encode(category, forKey: .category)
            try container.encode(level, forKey: .level)
            try container.encode(message, forKey: .message)
            try container.encode(method, forKey: .method)
            try container.encode(url, forKey: .url)
            try container.encode(statusCode, forKey: .statusCode)
        }

        /// What the terminal shows after the level and category: the message, and the request with its status.
        var summary: String {
            let request = [method, url, statusCode.map { "→ \($0)" }].compactMap { $0 }.joined(separator: " ")
            return [message, request.isEmpty ? nil : request].compactMap { $0 }.joined(separator: "  ")
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
        latest = latestEvent.map { Latest($0, title: issue.latest.title) }
        read = scan.counts
    }

    public func encode(to encoder: any Encoder) throws {
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
    public func text(style: TextStyle) -> String {
        let safe = TerminalText.safe
        var lines = [
            style.bold("\(issue.id)  \(safe(issue.kind))  \(safe(issue.title))"),
            "\(counted(issue.events, "event")), \(counted(issue.users, "user")), "
                + "first seen \(issue.firstSeen), last seen \(issue.lastSeen)",
            "fingerprint: \(fingerprint.map(safe).joined(separator: " · "))",
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
        if let latest {
            lines += [
                "", style.bold("latest event \(safe(latest.eventID)) at \(safe(latest.timestamp))"), safe(latest.title),
            ]
            lines += latest.detailLines()
            if let message = latest.serverMessage { lines.append("server message: \(safe(message))") }
            if let path = latest.decodingPath { lines.append("decoding path: \(safe(path))") }
            if let detail = latest.decodingDetail { lines.append("decoder: \(safe(detail))") }
            if latest.chain.count > 1 {
                for (index, exception) in latest.chain.enumerated() where !exception.stacktrace.isEmpty {
                    let role = index == latest.chain.count - 1 ? "raised" : "cause"
                    let title = safe("\(exception.type): \(exception.value)")
                    lines += Self.lines(of: exception.stacktrace, heading: "\(role) \(title)", style: style)
                }
            } else if !latest.stacktrace.isEmpty {
                lines += Self.lines(of: latest.stacktrace, heading: "stack trace", style: style)
            }
            if !latest.breadcrumbs.isEmpty {
                lines.append(style.bold("breadcrumbs (last \(min(20, latest.breadcrumbs.count)), oldest first):"))
                for crumb in latest.breadcrumbs.suffix(20) {
                    lines.append(
                        "  \(safe(crumb.timestamp))  \(safe(crumb.level).padding(toLength: 7))  "
                            + "\(safe(crumb.category ?? "-").padding(toLength: 14))  \(safe(crumb.summary))")
                }
            }
        }
        return lines.joined(separator: "\n") + "\n" + ReadCounts.text(read, style: style)
    }

    /// The most frames the terminal shows of a stack trace, the most recent ones.
    static let framesShown = 20

    /// A stack trace under `heading`, most recent call last: each frame with its line of source when the event
    /// quotes it; when some frames are the app's, each run of frames that are not is folded into a count.
    private static func lines(
        of frames: [SentryEvent.Stacktrace.Frame], heading: String, style: TextStyle
    ) -> [String] {
        let foldsLibraries = frames.contains { $0.inApp == true }
        var entries: [[String]] = []
        var folded = 0
        func flush() {
            if folded > 0 { entries.append(["  … \(counted(folded, "frame")) not in app"]) }
            folded = 0
        }
        for frame in frames {
            if foldsLibraries, frame.inApp == false {
                folded += 1
                continue
            }
            flush()
            var entry = ["  " + line(of: frame)]
            if let source = frame.contextLine?.trimmingCharacters(in: .whitespaces), !source.isEmpty {
                entry.append("      " + TerminalText.safe(source))
            }
            entries.append(entry)
        }
        flush()
        let shown = entries.suffix(framesShown)
        let last = shown.count < entries.count ? "last \(shown.count) of \(entries.count) entries, " : ""
        return [style.bold("\(heading) (\(last)most recent call last):")] + shown.flatMap { $0 }
    }

    /// `Module/File.swift:42 in pay(_:)`, the place a frame names, with its binary when it has no file; a frame
    /// that is not the app's is marked so.
    private static func line(of frame: SentryEvent.Stacktrace.Frame) -> String {
        let safe = TerminalText.safe
        var place = frame.filename.map(safe) ?? frame.module.map(safe) ?? frame.package.map(safe) ?? "?"
        if let line = frame.lineno { place += ":\(line)" }
        let function = frame.function.map { " in \(safe($0))" } ?? ""
        return place + function + (frame.inApp == false ? "  (not in app)" : "")
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
            "hit \(signals.users) of the \(signals.usersInWindow) users seen in the window"
                + (segments.isEmpty ? "" : "; segments " + segments.joined(separator: ", ")),
        ]
    }

    private static func counts(_ counts: [String: Int]) -> [Count] {
        IssueRow.ranked(counts).prefix(listed).map { Count(value: $0, events: counts[$0] ?? 0) }
    }
}

extension String {
    fileprivate func padding(toLength length: Int) -> String {
        let width = TerminalText.width(self)
        return width >= length ? self : self + String(repeating: " ", count: length - width)
    }
}
