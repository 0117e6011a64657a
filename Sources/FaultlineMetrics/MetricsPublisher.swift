#if SwiftMetrics
    import CoreMetrics

    /// Turns the differences between two samples into counter increments, and the latest sample into gauges, keeping
    /// one metric object per name and dimensions.
    struct MetricsPublisher {
        let factory: any MetricsFactory
        private var counters: [String: Counter] = [:]
        private var outbox: Gauge?
        private var requests: RequestMetricsPublisher

        init(factory: any MetricsFactory) {
            self.factory = factory
            requests = RequestMetricsPublisher(factory: factory)
        }

        /// Publishes what changed from `earlier` to `sample`. Publishing a sample since itself creates every series
        /// it has at zero, so that dashboards show them before anything happens.
        mutating func publish(_ sample: StatisticsSample, since earlier: StatisticsSample) {
            count("faultline_sdk_events_captured_total", "kind", sample.captured, since: earlier.captured)
            count("faultline_sdk_events_dropped_total", "reason", sample.dropped, since: earlier.dropped)
            count("faultline_sdk_token_refreshes_total", "outcome", sample.refreshes, since: earlier.refreshes)
            increment("faultline_sdk_events_delivered_total", [], by: sample.delivered - earlier.delivered)
            increment("faultline_sdk_delivery_retries_total", [], by: sample.retried - earlier.retried)
            if outbox == nil { outbox = Gauge(label: "faultline_sdk_outbox_envelopes", factory: factory) }
            outbox?.record(sample.outboxEnvelopes)
            requests.publish(sample.requests, since: earlier.requests)
        }

        private mutating func count(
            _ label: String, _ dimension: String, _ counts: [String: Int], since earlier: [String: Int]
        ) {
            for (value, count) in counts {
                increment(label, [(dimension, value)], by: count - earlier[value, default: 0])
            }
        }

        private mutating func increment(_ label: String, _ dimensions: [(String, String)], by amount: Int) {
            let key = label + dimensions.map { "|\($0)=\($1)" }.joined()
            let counter =
                counters[key]
                ?? {
                    let counter = Counter(label: label, dimensions: dimensions, factory: factory)
                    counters[key] = counter
                    return counter
                }()
            if amount > 0 { counter.increment(by: amount) }
        }
    }
#endif
