import FaultlineReporting

/// One row of `faultline issues`, and an issue in every `--json` output: every field is always present, `null` when
/// the issue's events did not say (`route`, `status`, `server_code`); `status` is a number.
public struct IssueRow: Hashable, Sendable, Codable {
    /// Its id as shown: the shortest prefix of its 32-digit id, of 8 digits or more, that no other issue read has;
    /// `show` takes it or any longer prefix.
    public let id: String
    /// The grouping key the id is made from.
    public let fingerprint: [String]
    public let kind: String
    public let title: String
    /// The route, status and business code of most of its events.
    public let route: String?
    public let status: String?
    public let serverCode: String?
    public let events: Int
    public let users: Int
    /// RFC 3339, UTC.
    public let firstSeen: String
    public let lastSeen: String
    /// Its releases, most events first.
    public let releases: [String]
    /// Events per bucket over the range of the whole report, oldest first: buckets of whole minutes for logs that span
    /// up to 12 hours, of whole hours beyond.
    public let trend: [Int]
    /// Its signals in the incident window (`incident`, and `summary` and `issues` with `--since`); `null` without a
    /// window.
    public let signals: IssueSignals?

    enum CodingKeys: String, CodingKey {
        case id, fingerprint, kind, title, route, status, events, users, releases, trend, signals
        case serverCode = "server_code"
        case firstSeen = "first_seen"
        case lastSeen = "last_seen"
    }

    /// The row of `issue` as `scan` read it: first seen in all the logs read (before the window too), counted in the
    /// window, with its signals when the scan has one.
    init(_ issue: Issue, in scan: LogScan, trendFrom start: Double, to end: Double, buckets: Int) {
        signals = scan.signals(of: issue)
        id = scan.shortID(of: issue)
        fingerprint = issue.fingerprint
        kind = issue.kind
        title = issue.title
        route = Self.mostCommon(issue.routes)
        status = Self.mostCommon(issue.statuses)
        serverCode = Self.mostCommon(issue.serverCodes)
        events = issue.events
        users = issue.users.count
        firstSeen = RFC3339.string(seconds: scan.firstSeen(of: issue), precision: .seconds)
        lastSeen = RFC3339.string(seconds: issue.lastSeen, precision: .seconds)
        releases = Self.ranked(issue.releases)
        trend =
            if let minutes = issue.minutes {
                Sparkline.buckets(minutes, period: 60, count: buckets, from: start, to: end)
            } else {
                Sparkline.buckets(issue.hours, period: 3600, count: buckets, from: start, to: end)
            }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(fingerprint, forKey: .fingerprint)
        try container.encode(kind, forKey: .kind)
        try container.encode(title, forKey: .title)
        try container.encode(route, forKey: .route)
        try container.encode(status.flatMap { Int($0) }, forKey: .status)
        try container.encode(serverCode, forKey: .serverCode)
        try container.encode(events, forKey: .events)
        try container.encode(users, forKey: .users)
        try container.encode(firstSeen, forKey: .firstSeen)
        try container.encode(lastSeen, forKey: .lastSeen)
        try container.encode(releases, forKey: .releases)
        try container.encode(trend, forKey: .trend)
        try container.encode(signals, forKey: .signals)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        fingerprint = try container.decode([String].self, forKey: .fingerprint)
        kind = try container.decode(String.self, forKey: .kind)
        title = try container.decode(String.self, forKey: .title)
        route = try container.decodeIfPresent(String.self, forKey: .route)
        status = try container.decodeIfPresent(Int.self, forKey: .status).map(String.init)
        serverCode = try container.decodeIfPresent(String.self, forKey: .serverCode)
        events = try container.decode(Int.self, forKey: .events)
        users = try container.decode(Int.self, forKey: .users)
        firstSeen = try container.decode(String.self, forKey: .firstSeen)
        lastSeen = try container.decode(String.self, forKey: .lastSeen)
        releases = try container.decode([String].self, forKey: .releases)
        trend = try container.decode([Int].self, forKey: .trend)
        signals = try container.decodeIfPresent(IssueSignals.self, forKey: .signals)
    }

    /// The sparkline of ``trend``.
    public var sparkline: String { Sparkline.draw(trend) }

    static func mostCommon(_ counts: [String: Int]) -> String? {
        ranked(counts).first
    }

    /// Keys by count, highest first, ties by name.
    static func ranked(_ counts: [String: Int]) -> [String] {
        counts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map(\.key)
    }
}
