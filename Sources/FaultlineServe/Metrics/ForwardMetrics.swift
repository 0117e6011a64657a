import FaultlineRecords
import FaultlineReporting
import Prometheus

/// What `faultline serve --forward` reports at `/metrics` for each upstream, read from its uploader at each scrape:
/// the queue's depth, and the uploader's cumulative counts (kept across restarts in `delivery-stats.json`, as
/// `faultline stats` shows them). Upstreams are those the operator configured, so the labels stay bounded.
struct ForwardMetrics: Sendable {
    private let registry = PrometheusCollectorRegistry()
    private var queued: MetricFamily
    private var forwarded: MetricFamily
    private var retried: MetricFamily
    private var dropped: MetricFamily

    init() {
        queued = MetricFamily(
            name: "faultline_forward_queue_envelopes", help: "Envelopes waiting in the forward queue, by upstream.",
            kind: .gauge, labels: ["upstream"], in: registry)
        forwarded = MetricFamily(
            name: "faultline_forward_delivered_total", help: "Envelopes the upstream accepted, by upstream.",
            labels: ["upstream"], in: registry)
        retried = MetricFamily(
            name: "faultline_forward_retried_total",
            help:
                "Sends that failed and were kept for another attempt (network errors, 429, 502, 503, 504), by upstream.",
            labels: ["upstream"], in: registry)
        dropped = MetricFamily(
            name: "faultline_forward_dropped_total",
            help:
                "Items not forwarded, by upstream, reason (ratelimit_backoff, cache_overflow, send_error, "
                + "internal_sdk_error) and data category.",
            labels: ["upstream", "reason", "category"], in: registry)
    }

    /// Adds the state of the queue of `upstream`: `pending` envelopes, and what its uploader did.
    mutating func add(upstream: String, pending: Int, statistics: DeliveryStatistics) {
        queued.add([upstream], pending)
        forwarded.add([upstream], statistics.delivered)
        retried.add([upstream], statistics.retried)
        for drop in statistics.discarded {
            dropped.add([upstream, drop.reason.rawValue, drop.category.rawValue], drop.quantity)
        }
    }

    /// Every metric in the Prometheus text exposition format.
    func exposition() -> String {
        registry.emitToString()
    }
}
