import FaultlineRecords

/// What a route's requests say in an incident window against its history (``SignalWindow`` defines each): whether the
/// share of its requests that fail spiked, and whether it got slower in the newest release. Counted from the request
/// outcomes the reporters wrote, every request counted, none sampled: exact counts, percentiles within 1/32.
package struct RouteSignals: Hashable, Sendable, Encodable {
    /// Requests and failures, and their ratio (0 to 1; `nil` without requests).
    package struct FailureRate: Hashable, Sendable, Encodable {
        package let requests: Int
        package let failures: Int
        package var rate: Double? { requests > 0 ? Double(failures) / Double(requests) : nil }

        init(_ tally: RequestOutcomes.Tally) {
            (requests, failures) = (tally.requests, tally.failures)
        }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(requests, forKey: .requests)
            try container.encode(failures, forKey: .failures)
            try container.encode(rate, forKey: .rate)
        }

        enum CodingKeys: String, CodingKey {
            case requests, failures, rate
        }
    }

    /// The p95 duration in seconds in the newest release and in the one before, and how many requests each is from.
    package struct Latency: Hashable, Sendable, Encodable {
        package let release: String
        package let p95: Double
        package let requests: Int
        package let previousRelease: String
        package let previousP95: Double
        package let previousRequests: Int
        /// ``p95`` over ``previousP95``; `nil` when that is 0.
        package var factor: Double? { previousP95 > 0 ? p95 / previousP95 : nil }

        enum CodingKeys: String, CodingKey {
            case release, p95, requests, factor
            case previousRelease = "previous_release"
            case previousP95 = "previous_p95"
            case previousRequests = "previous_requests"
        }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(release, forKey: .release)
            try container.encode(p95, forKey: .p95)
            try container.encode(requests, forKey: .requests)
            try container.encode(previousRelease, forKey: .previousRelease)
            try container.encode(previousP95, forKey: .previousP95)
            try container.encode(previousRequests, forKey: .previousRequests)
            try container.encode(factor, forKey: .factor)
        }
    }

    package let method: String
    package let route: String
    /// Its requests in the window and in the baseline before it.
    package let window: FailureRate
    package let baseline: FailureRate
    /// The window's failure rate over the baseline's; `nil` when the baseline had no failure or too few requests.
    package let rateFactor: Double?
    package let isFailureRateSpiking: Bool
    /// Its p95 in the newest release against the release before, when both have enough requests.
    package let latency: Latency?
    package let isLatencyRegressed: Bool

    enum CodingKeys: String, CodingKey {
        case method, route, window, baseline, latency
        case rateFactor = "rate_factor"
        case isFailureRateSpiking = "failure_rate_spiking"
        case isLatencyRegressed = "latency_regressed"
    }

    /// The signals' names, as the text reports list them.
    package var names: [String] {
        (isFailureRateSpiking ? ["failure rate spiking"] : []) + (isLatencyRegressed ? ["slower"] : [])
    }

    /// Whether a signal flags it.
    package var isFlagged: Bool { isFailureRateSpiking || isLatencyRegressed }

    /// The signals of every route with requests in `window`, against `baseline`, the requests of the
    /// ``SignalWindow/baseline`` before it, with `thresholds`; flagged routes first, most failures first.
    package static func signals(
        window: RouteOutcomes, baseline: RouteOutcomes, thresholds: SignalWindow
    ) -> [RouteSignals] {
        let releases = window.releaseStarts.merging(baseline.releaseStarts, uniquingKeysWith: min)
            .sorted { ($0.value, $0.key) < ($1.value, $1.key) }.map(\.key)
        let newest = releases.last
        let previous = releases.dropLast().last
        let signals = window.routes.map { route, byRelease in
            let now = byRelease.values.reduce(into: RequestOutcomes.Tally()) { $0.merge($1) }
            let before = (baseline.routes[route] ?? [:]).values.reduce(into: RequestOutcomes.Tally()) { $0.merge($1) }
            var previousTally = byRelease[previous] ?? RequestOutcomes.Tally()
            if let earlier = baseline.routes[route]?[previous] { previousTally.merge(earlier) }
            let newestTally = newest.flatMap { release in byRelease[release].map { (release: release, tally: $0) } }
            return RouteSignals(
                route: route, window: now, baseline: before,
                latency: Self.latency(
                    newestTally, previous.map { (release: $0, tally: previousTally) }, thresholds: thresholds),
                thresholds: thresholds)
        }
        return signals.sorted {
            ($0.isFlagged ? 0 : 1, -$0.window.failures, $0.route, $0.method)
                < ($1.isFlagged ? 0 : 1, -$1.window.failures, $1.route, $1.method)
        }
    }

    private init(
        route: RequestOutcomes.Route, window now: RequestOutcomes.Tally, baseline before: RequestOutcomes.Tally,
        latency: Latency?, thresholds: SignalWindow
    ) {
        (method, self.route) = (route.method, route.route)
        window = FailureRate(now)
        baseline = FailureRate(before)
        let enough = window.requests >= thresholds.minimumRequests && baseline.requests >= thresholds.minimumRequests
        let factor = baseline.failures > 0 ? (window.rate ?? 0) / (baseline.rate ?? 1) : nil
        rateFactor = enough ? factor : nil
        isFailureRateSpiking =
            enough && window.failures > 0
            && (factor.map { $0 >= thresholds.spikeFactor } ?? (window.failures >= thresholds.spikeMinimum))
        self.latency = latency
        isLatencyRegressed =
            latency.map {
                $0.p95 >= thresholds.latencyFactor * $0.previousP95
                    && $0.p95 - $0.previousP95 >= thresholds.latencyFloor
            } ?? false
    }

    /// The p95 of `newest` against `previous`'s, when both have at least the minimum of requests.
    private static func latency(
        _ newest: (release: String, tally: RequestOutcomes.Tally)?,
        _ previous: (release: String, tally: RequestOutcomes.Tally)?, thresholds: SignalWindow
    ) -> Latency? {
        guard let newest, let previous, newest.tally.requests >= thresholds.minimumRequests,
            previous.tally.requests >= thresholds.minimumRequests,
            let p95 = newest.tally.durations.percentile(0.95),
            let previousP95 = previous.tally.durations.percentile(0.95)
        else { return nil }
        return Latency(
            release: newest.release, p95: seconds(p95), requests: newest.tally.requests,
            previousRelease: previous.release, previousP95: seconds(previousP95),
            previousRequests: previous.tally.requests)
    }

    private static func seconds(_ duration: Duration) -> Double {
        (duration / .microseconds(1)).rounded() / 1_000_000
    }
}
