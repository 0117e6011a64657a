import FaultlineRecords

/// One row of `faultline issues`, and an issue in every `--json` output: every field is always present, `null` when
/// the issue's events did not say (`route`, `status`, `server_code`); `status` is a number.
package struct IssueRow: Hashable, Sendable, Codable {
    /// Its id as shown: the shortest prefix of its 32-digit id, of 8 digits or more, that no other issue read has;
    /// `show` takes it or any longer prefix.
    package let id: String
    /// The grouping key the id is made from.
    package let fingerprint: [String]
    package let kind: String
    package let title: String
    /// The route, status and business code of most of its events.
    package let route: String?
    package let status: String?
    package let serverCode: String?
    package let events: Int
    /// The requests of its route (and method) in the window, as the reporters counted them (`faultline routes`), and
    /// of them those that failed as its events did (its kind and status class, such as `decoding.2xx`) when it is the
    /// only issue of its route, kind and status class: exact where its events are not (sampled, over the fingerprint
    /// limit, or a session expiry that many requests share); `null` where the route has no request counts, or the
    /// failures are shared.
    package let routeRequests: Int?
    package let failedRequests: Int?
    /// Whether those counts are in part estimated from sampled spans (each one standing for 1 / its trace's sample
    /// rate requests), for releases that sent spans and no request outcomes: `faultline serve`'s log, from SDKs that
    /// send only transactions.
    package let requestsEstimated: Bool
    package let users: Int
    /// RFC 3339, UTC.
    package let firstSeen: String
    package let lastSeen: String
    /// Its releases, most events first.
    package let releases: [String]
    /// Events per bucket over the range of the whole report, oldest first: buckets of whole minutes for logs that span
    /// up to 12 hours, of whole hours beyond.
    package let trend: [Int]
    /// Its signals in the incident window (`incident`, and `summary` and `issues` with `--since`); `null` without a
    /// window.
    package let signals: IssueSignals?

    enum CodingKeys: String, CodingKey {
        case id, fingerprint, kind, title, route, status, events, users, releases, trend, signals
        case serverCode = "server_code"
        case firstSeen = "first_seen"
        case lastSeen = "last_seen"
        case routeRequests = "route_requests"
        case failedRequests = "failed_requests"
        case requestsEstimated = "requests_estimated"
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
        let requests = scan.requests(of: issue)
        (routeRequests, failedRequests) = (requests?.all.requests, requests?.failed?.requests)
        requestsEstimated = requests.map { $0.all.isEstimated || $0.failed?.isEstimated == true } ?? false
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

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(fingerprint, forKey: .fingerprint)
        try container.encode(kind, forKey: .kind)
        try container.encode(title, forKey: .title)
        try container.encode(route, forKey: .route)
        try container.encode(status.flatMap { Int($0) }, forKey: .status)
        try container.encode(serverCode, forKey: .serverCode)
        try container.encode(events, forKey: .events)
        try container.encode(routeRequests, forKey: .routeRequests)
        try container.encode(failedRequests, forKey: .failedRequests)
        try container.encode(requestsEstimated, forKey: .requestsEstimated)
        try container.encode(users, forKey: .users)
        try container.encode(firstSeen, forKey: .firstSeen)
        try container.encode(lastSeen, forKey: .lastSeen)
        try container.encode(releases, forKey: .releases)
        try container.encode(trend, forKey: .trend)
        try container.encode(signals, forKey: .signals)
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        fingerprint = try container.decode([String].self, forKey: .fingerprint)
        kind = try container.decode(String.self, forKey: .kind)
        title = try container.decode(String.self, forKey: .title)
        route = try container.decodeIfPresent(String.self, forKey: .route)
        status = try container.decodeIfPresent(Int.self, forKey: .status).map(String.init)
        serverCode = try container.decodeIfPresent(String.self, forKey: .serverCode)
        events = try container.decode(Int.self, forKey: .events)
        routeRequests = try container.decodeIfPresent(Int.self, forKey: .routeRequests)
        failedRequests = try container.decodeIfPresent(Int.self, forKey: .failedRequests)
        requestsEstimated = try container.decodeIfPresent(Bool.self, forKey: .requestsEstimated) ?? false
        users = try container.decode(Int.self, forKey: .users)
        firstSeen = try container.decode(String.self, forKey: .firstSeen)
        lastSeen = try container.decode(String.self, forKey: .lastSeen)
        releases = try container.decode([String].self, forKey: .releases)
        trend = try container.decode([Int].self, forKey: .trend)
        signals = try container.decodeIfPresent(IssueSignals.self, forKey: .signals)
    }

    /// Its share of its route's requests: `5.0 % of 100`, `~5.0 % of ~100` where they are estimated in part; `-`
    /// where the route has no request counts.
    package var shareOfRequests: String {
        guard let routeRequests, routeRequests > 0 else { return "-" }
        let about = requestsEstimated ? "~" : ""
        let share = RoutesReport.percent(Double(failedRequests ?? events) / Double(routeRequests))
        return "\(about)\(share) of \(about)\(routeRequests)"
    }

    /// Its failed requests (or, where the route's failures of its kind are shared with other issues, its events) out
    /// of its route's requests: `5 of 100 requests (5.0 %)`; or that the route has no request counts.
    package var ofRequests: String {
        guard let routeRequests, routeRequests > 0 else {
            return "no request counts for \(route ?? "its route") (the app records none, or none in the window)"
        }
        let failed = failedRequests ?? events
        let share = RoutesReport.percent(Double(failed) / Double(routeRequests))
        let counting = failedRequests == nil ? ", counting its events: other issues fail alike on the route" : ""
        guard requestsEstimated else {
            return "\(failed) of \(counted(routeRequests, "request")) (\(share))\(counting)"
        }
        let about = failedRequests == nil ? "" : "~"
        return
            "\(about)\(failed) of ~\(counted(routeRequests, "request")) (~\(share)\(counting)), estimated from sampled spans"
    }

    /// The sparkline of ``trend``.
    package var sparkline: String { Sparkline.draw(trend) }

    static func mostCommon(_ counts: [String: Int]) -> String? {
        ranked(counts).first
    }

    /// Keys by count, highest first, ties by name.
    static func ranked(_ counts: [String: Int]) -> [String] {
        counts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map(\.key)
    }
}
