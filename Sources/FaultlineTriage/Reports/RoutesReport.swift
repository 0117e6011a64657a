import FaultlineRecords
import Foundation

/// `faultline routes`: how the requests of each route ended, from the request outcomes the reporters counted: requests,
/// failures by outcome, the failure rate and the p50, p95 and p99 durations, per route and, where a route has several,
/// per release. Routes are listed by failures, then requests.
///
/// Beside them, apart and labelled so, the routes of releases that sent no request outcomes, estimated from the
/// `http.client` spans of their sampled transactions (``SpanEstimate``).
package struct RoutesReport: Hashable, Sendable, Encodable {
    /// How a set of requests ended: counts, the failure rate (0 to 1, `nil` without requests), and percentiles of
    /// their durations.
    package struct Requests: Hashable, Sendable, Encodable {
        package let requests: Int
        package let failures: Int
        package let failureRate: Double?
        /// Requests by outcome: `ok`, or a failure's kind and status class (`decoding.2xx`).
        package let outcomes: [String: Int]
        package let durationMilliseconds: Durations

        init(_ tally: RequestOutcomes.Tally) {
            requests = tally.requests
            failures = tally.failures
            failureRate = requests > 0 ? Double(failures) / Double(requests) : nil
            outcomes = tally.outcomes
            durationMilliseconds = Durations(tally.durations)
        }

        /// The requests `estimate` stands for, rounded to whole requests; the rate is of the unrounded ones.
        init(_ estimate: SpanEstimate) {
            requests = Int(estimate.requests.rounded())
            failures = Int(estimate.failures.rounded())
            failureRate = estimate.requests > 0 ? estimate.failures / estimate.requests : nil
            outcomes = estimate.outcomes.mapValues { Int($0.rounded()) }
            durationMilliseconds = Durations(estimate.durations)
        }

        enum CodingKeys: String, CodingKey {
            case requests, failures, outcomes
            case failureRate = "failure_rate"
            case durationMilliseconds = "duration_ms"
        }
    }

    /// Percentiles of durations in milliseconds, to the microsecond, read at the middle of a histogram bucket: within
    /// 1/32 of the durations they stand for; `nil` when no request was timed.
    package struct Durations: Hashable, Sendable, Encodable {
        package let p50: Double?
        package let p95: Double?
        package let p99: Double?

        init(_ histogram: LatencyHistogram) {
            func milliseconds(_ fraction: Double) -> Double? {
                histogram.percentile(fraction).map { ($0 / .microseconds(1)).rounded() / 1000 }
            }
            (p50, p95, p99) = (milliseconds(0.5), milliseconds(0.95), milliseconds(0.99))
        }
    }

    /// A route, all its requests, and those of each release when it has several.
    package struct Route: Hashable, Sendable, Encodable {
        package let method: String
        package let route: String
        package let totals: Requests
        /// By release, by requests; empty when the route's requests are of one release.
        package let releases: [Release]
    }

    /// One release's requests of a route.
    package struct Release: Hashable, Sendable, Encodable {
        package let release: String?
        package let totals: Requests
    }

    /// A route's requests estimated from spans: each span counts for as many requests as its trace's sample rate
    /// says (4 at 25 %), counts rounded to whole requests.
    package struct EstimatedRoute: Hashable, Sendable, Encodable {
        package let method: String
        package let route: String
        /// Always `true`: these are estimates, not counts.
        package let estimated = true
        package let totals: Requests
        /// The spans the estimate is made of, those whose transaction did not say its sample rate (each counted as
        /// one request, so the estimate is then a floor), and the sample rates of the others' traces.
        package let spans: Int
        package let unweightedSpans: Int
        package let sampleRates: [Double]
        /// The releases the spans came from.
        package let releases: [String?]

        init(_ route: RequestOutcomes.Route, _ releases: [String?: SpanEstimate]) {
            var all = SpanEstimate()
            for estimate in releases.values { all.merge(estimate) }
            method = route.method
            self.route = route.route
            totals = Requests(all)
            spans = all.spans
            unweightedSpans = all.unweightedSpans
            sampleRates = all.sampleRates.sorted()
            self.releases = releases.keys.sorted { ($0 ?? "") < ($1 ?? "") }
        }

        enum CodingKeys: String, CodingKey {
            case method, route, estimated, totals, spans, releases
            case unweightedSpans = "unweighted_spans"
            case sampleRates = "sample_rates"
        }
    }

    /// When the first interval counted started and the last one ended, RFC 3339; `nil` when none was.
    package let from: String?
    package let to: String?
    /// Every request counted.
    package let totals: Requests
    package let routes: [Route]
    /// The requests the reporters counted together past their route limit; `nil` when there were none.
    package let overflow: Requests?
    /// The routes of releases without request outcomes, estimated from their spans, listed as ``routes`` are.
    package let estimatedRoutes: [EstimatedRoute]
    package let read: RouteOutcomes.RequestLogCounts

    /// The report of `outcomes`.
    package init(_ outcomes: RouteOutcomes) {
        from = outcomes.firstStart.map { RFC3339.string(seconds: $0) }
        to = outcomes.lastEnd.map { RFC3339.string(seconds: $0) }
        var all = outcomes.overflow
        routes = outcomes.routes.map { route, releases in
            var totals = RequestOutcomes.Tally()
            for tally in releases.values { totals.merge(tally) }
            all.merge(totals)
            let byRelease =
                releases.count < 2
                ? []
                : releases.map { Release(release: $0.key, totals: Requests($0.value)) }
                    .sorted { ($1.totals.requests, $0.release ?? "") < ($0.totals.requests, $1.release ?? "") }
            return Route(method: route.method, route: route.route, totals: Requests(totals), releases: byRelease)
        }.sorted {
            ($1.totals.failures, $1.totals.requests, $0.route, $0.method)
                < ($0.totals.failures, $0.totals.requests, $1.route, $1.method)
        }
        totals = Requests(all)
        overflow = outcomes.overflow.outcomes.isEmpty ? nil : Requests(outcomes.overflow)
        estimatedRoutes = outcomes.estimates.map(EstimatedRoute.init).sorted {
            ($1.totals.failures, $1.totals.requests, $0.route, $0.method)
                < ($0.totals.failures, $0.totals.requests, $1.route, $1.method)
        }
        read = outcomes.read
    }

    package func encode(to encoder: any Encoder) throws {
        try JSONSchemaVersion.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(from, forKey: .from)
        try container.encode(to, forKey: .to)
        try container.encode(totals, forKey: .totals)
        try container.encode(routes, forKey: .routes)
        try container.encode(overflow, forKey: .overflow)
        try container.encode(estimatedRoutes, forKey: .estimatedRoutes)
        try container.encode(read, forKey: .read)
    }

    enum CodingKeys: String, CodingKey {
        case from, to, totals, routes, overflow, read
        case estimatedRoutes = "estimated_routes"
    }

    /// A table of the routes, each release of a route with several indented under it, with a headline of the totals.
    package func text(style: TextStyle) -> String {
        guard read.intervals > 0 else {
            let none =
                "No request outcomes: the reporters wrote none (Reporter.Options.recordsRequestOutcomes is on by "
                + "default, for the requests of a CaptureMiddleware).\n"
            return none + estimatesText(style: style) + footer(style: style)
        }
        var headline = "requests by route"
        if let from, let to { headline += ", \(UTCTime.minute(from)) to \(UTCTime.minute(to)) UTC" }
        headline += ": \(counted(totals.requests, "request")), \(totals.failures) failed"
        if let rate = totals.failureRate { headline += " (\(Self.percent(rate)))" }
        var table = TextTable(
            header: ["ROUTE", "REQUESTS", "FAILED", "RATE", "P50", "P95", "P99", "FAILURES"],
            rightAligned: [1, 2, 3, 4, 5, 6], flexible: 0, dropOrder: [7, 4, 6])
        func row(_ name: String, _ requests: Requests) -> [String] {
            [
                name, String(requests.requests), String(requests.failures),
                requests.failureRate.map(Self.percent) ?? "-", Self.milliseconds(requests.durationMilliseconds.p50),
                Self.milliseconds(requests.durationMilliseconds.p95),
                Self.milliseconds(requests.durationMilliseconds.p99),
                requests.outcomes.filter { $0.key != RequestOutcomes.success }
                    .sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.key) \($0.value)" }
                    .joined(separator: ", "),
            ]
        }
        for route in routes {
            table.rows.append(row("\(route.method) \(route.route)", route.totals))
            for release in route.releases {
                table.rows.append(row("  " + (release.release ?? "(no release)"), release.totals))
            }
        }
        if let overflow { table.rows.append(row("(routes past the limit)", overflow)) }
        return style.bold(headline) + "\n\n" + table.render(style: style) + "\n" + estimatesText(style: style)
            + footer(style: style)
    }

    /// The estimated routes, under a headline that says they are estimates and what they are made of; nothing when
    /// there are none.
    private func estimatesText(style: TextStyle) -> String {
        guard !estimatedRoutes.isEmpty else { return "" }
        let spans = estimatedRoutes.reduce(0) { $0 + $1.spans }
        let unweighted = estimatedRoutes.reduce(0) { $0 + $1.unweightedSpans }
        var headline = "estimated from \(counted(spans, "span")) of releases without request outcomes, "
        headline += "each counted as 1 / its trace's sample rate"
        if unweighted > 0 { headline += " (\(unweighted) without a sample rate counted once: a floor)" }
        var table = TextTable(
            header: ["ROUTE", "~REQUESTS", "~FAILED", "RATE", "P50", "P95", "P99", "SPANS", "SAMPLED AT"],
            rightAligned: [1, 2, 3, 4, 5, 6, 7], flexible: 0, dropOrder: [8, 4, 6])
        for route in estimatedRoutes {
            let requests = route.totals
            table.rows.append([
                "\(route.method) \(route.route)", "~\(requests.requests)", "~\(requests.failures)",
                requests.failureRate.map(Self.percent) ?? "-", Self.milliseconds(requests.durationMilliseconds.p50),
                Self.milliseconds(requests.durationMilliseconds.p95),
                Self.milliseconds(requests.durationMilliseconds.p99), String(route.spans),
                (route.sampleRates.map(Self.rate) + (route.unweightedSpans > 0 ? ["?"] : [])).joined(separator: ", "),
            ])
        }
        return style.bold(headline) + "\n\n" + table.render(style: style) + "\n"
    }

    /// `25 %`, `0.1 %`: a sample rate.
    static func rate(_ rate: Double) -> String {
        let percent = rate * 100
        return percent == percent.rounded() ? "\(Int(percent)) %" : String(format: "%.3g %%", percent)
    }

    /// What was read, and what was skipped.
    private func footer(style: TextStyle) -> String {
        var line = "read \(counted(read.files, "file")), \(counted(read.intervals, "interval")) of request outcomes"
        if read.transactions > 0 {
            line += ", \(counted(read.transactions, "transaction")) with \(counted(read.spans, "request span"))"
        }
        let skipped = [
            ("unreadable line", read.unreadableLines), ("truncated gzip file", read.truncatedGzip),
            ("corrupt gzip file", read.corruptGzip), ("unreadable file", read.unreadableFiles),
        ].filter { $0.1 > 0 }.map { counted($0.1, $0.0) }
        guard !skipped.isEmpty else { return style.dim(line) + "\n" }
        return style.dim(line) + "\n" + style.red("skipped: " + skipped.joined(separator: ", ")) + "\n"
    }

    /// `5.0 %`.
    static func percent(_ rate: Double) -> String { String(format: "%.1f %%", rate * 100) }

    /// `840 µs`, `4.2 ms`, `18 ms`, `1.25 s`; `-` for none.
    static func milliseconds(_ value: Double?) -> String {
        guard let value else { return "-" }
        switch value {
        case ..<1: return "\(Int((value * 1000).rounded())) µs"
        case ..<10: return String(format: "%.1f ms", value)
        case ..<1000: return "\(Int(value.rounded())) ms"
        default: return String(format: "%.2f s", value / 1000)
        }
    }
}
