import FaultlineLogReading
import FaultlineRecords
import Prometheus

/// What `faultline serve` counts, in the Prometheus text format at `/metrics`. Label sets are bounded: past
/// ``maximumSeries`` distinct sets in one metric, new ones are counted under `other`, so that a client sending many
/// routes or releases cannot grow the server's memory or the scraper's. What it counts is also added to the
/// ``statistics`` kept across runs.
struct IngestMetrics: Sendable {
    /// The most label sets one metric keeps.
    static let maximumSeries = 500

    /// Where the counters are kept, and what writes them out.
    private let registry = PrometheusCollectorRegistry()
    private var received: MetricFamily
    private var decoding: MetricFamily
    private var dropped: MetricFamily
    private var items: MetricFamily
    private var clientDiscards: MetricFamily
    private var requests: MetricFamily
    private var routeRequests: MetricFamily
    private var routeDurations = HistogramFamily(
        name: "faultline_request_duration_seconds",
        help: "How long the requests the apps counted took, by method and route template; the sum is estimated.",
        labels: ["method", "route"])
    /// The counts of earlier runs and this one, for `faultline stats`.
    private(set) var statistics: IngestStatistics

    /// Metrics from zero, adding to `statistics` an earlier run stored.
    init(statistics: IngestStatistics = IngestStatistics()) {
        self.statistics = statistics
        received = MetricFamily(
            name: "faultline_events_received_total",
            help: "Events accepted, by error.kind, route template, HTTP status, server business code and release.",
            labels: ["kind", "route", "status", "server_code", "release"], in: registry)
        decoding = MetricFamily(
            name: "faultline_decoding_failures_total", help: "Decoding failures accepted, by coding path and route.",
            labels: ["path", "route"], in: registry)
        dropped = MetricFamily(
            name: "faultline_events_dropped_total",
            help:
                "Events refused or not stored, by reason: duplicate, malformed, unauthorized, too_large, ratelimited, "
                + "client_closed.",
            labels: ["reason"], in: registry)
        items = MetricFamily(
            name: "faultline_items_total",
            help:
                "Items other than events in the requests answered 200, by item type and outcome: stored, or the reason "
                + "they were not (duplicate, unreadable, not_kept, not_forwarded).",
            labels: ["type", "outcome"], in: registry)
        clientDiscards = MetricFamily(
            name: "faultline_client_discarded_events_total",
            help: "Events clients reported they dropped (client reports), by reason and category.",
            labels: ["reason", "category"], in: registry)
        requests = MetricFamily(
            name: "faultline_ingest_requests_total", help: "Ingest requests answered, by HTTP status.",
            labels: ["status"], in: registry)
        routeRequests = MetricFamily(
            name: "faultline_requests_total",
            help:
                "Requests the apps counted (request outcomes), by method, route template, outcome (ok, or a failure's "
                + "kind and status class) and release.",
            labels: ["method", "route", "outcome", "release"], in: registry)
    }

    /// Counts an event stored, by the tags the pipeline sets when it could be read.
    mutating func countStored(_ record: EventRecord?) {
        statistics.stored += 1
        guard let record else { return }
        let tags = record.tags
        received.add([
            record.kind, tags["http.route"] ?? "", tags["http.status_code"] ?? "",
            tags["server.code"] ?? "", record.release ?? "",
        ])
        if let path = tags["decoding.path"] { decoding.add([path, tags["http.route"] ?? ""]) }
    }

    /// Counts the requests of an interval of request outcomes stored; those an app counted past its route limit under
    /// the route `other`.
    mutating func countStored(_ outcomes: RequestOutcomes) {
        let overflow = RequestOutcomes.Route(method: "other", route: "other")
        var routes = outcomes.routes
        routes[overflow, default: RequestOutcomes.Tally()].merge(outcomes.overflow)
        for (route, tally) in routes where !tally.outcomes.isEmpty {
            for (outcome, count) in tally.outcomes {
                routeRequests.add([route.method, route.route, outcome, outcomes.release ?? ""], count)
            }
            routeDurations.add([route.method, route.route], tally.durations)
        }
    }

    mutating func countDropped(_ reason: String, count: Int = 1) {
        dropped.add([reason], count)
        statistics.dropped[reason, default: 0] += count
    }

    /// Counts `count` items of `type` (an item type other than `event`) that met `fate`.
    mutating func countItems(_ type: String, _ fate: ItemFate, count: Int) {
        let type = ItemFate.countedType(type)
        items.add([type, fate.label], count)
        switch fate {
        case .stored: statistics.storedItems[type, default: 0] += count
        case .notStored(let reason): statistics.droppedItems["\(reason.rawValue)/\(type)", default: 0] += count
        }
    }

    mutating func countClientDiscards(reason: String, category: String, count: Int) {
        clientDiscards.add([reason, category], count)
        statistics.droppedBySDKs["\(reason)/\(category)", default: 0] += count
    }

    /// Counts the log's files removed: `evicted` by the size cap, `expired` past the maximum age.
    mutating func countLogFiles(evicted: Int, expired: Int) {
        statistics.logFilesEvicted += evicted
        statistics.logFilesExpired += expired
    }

    mutating func countRequest(status: Int) {
        requests.add([String(status)])
        statistics.requests[String(status), default: 0] += 1
    }

    /// Every metric in the Prometheus text exposition format.
    func exposition() -> String {
        registry.emitToString() + routeDurations.exposition()
    }
}
