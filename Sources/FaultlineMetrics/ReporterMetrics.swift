#if SwiftMetrics
    import CoreMetrics
    import FaultlineReporting

    /// Publishes what a `Reporter` and its `Uploader` count through swift-metrics, for server-side Swift apps that
    /// already export metrics (to Prometheus with swift-prometheus, to OpenTelemetry with swift-otel):
    ///
    /// | Metric | Type | Dimensions |
    /// |---|---|---|
    /// | `faultline_sdk_events_captured_total` | counter | `kind`: the `error.kind` tag |
    /// | `faultline_sdk_events_dropped_total` | counter | `reason`: a client-report discard reason |
    /// | `faultline_sdk_events_delivered_total` | counter | |
    /// | `faultline_sdk_delivery_retries_total` | counter | |
    /// | `faultline_sdk_token_refreshes_total` | counter | `outcome`: `refreshed` or `expired` |
    /// | `faultline_sdk_outbox_envelopes` | gauge | |
    /// | `faultline_sdk_requests_total` | counter | `method`, `route` (the template), `outcome` (`ok`, `decoding.2xx`) |
    /// | `faultline_sdk_request_duration_seconds` | timer | `method`, `route` |
    ///
    /// The requests are those the capture middlewares count (`Reporter.Options.recordsRequestOutcomes`), published once
    /// the interval they ended in is written (`requestOutcomesInterval`, a minute by default, and at flush and close):
    /// every request counted, none sampled; a duration is recorded at the middle of its histogram bucket, within 1/32
    /// of it. Past 200 routes in an interval, or 1000 in all, requests are published under the route `(other routes)`.
    ///
    /// `faultline_sdk_events_delivered_total` counts the envelopes the endpoint accepted
    /// (`DeliveryStatistics.delivered`): one per event, and those of client reports and request outcomes sent on their
    /// own.
    ///
    /// `faultline_sdk_outbox_envelopes` is what waits to be sent: the log's events after the delivery cursor, and envelopes
    /// of the outbox (client reports); the name stays from when every event had an envelope file of its own.
    ///
    /// Dimension values come from fixed sets (an unknown kind is `other`), so the number of series is bounded. The
    /// metrics are read from `Reporter.statistics` every `interval` rather than counted on the capture path, which
    /// costs the same with metrics as without. Following swift-metrics' conventions, the library never bootstraps the
    /// metrics system: it uses the factory it is given, `MetricsSystem.factory` by default.
    ///
    /// ```swift
    /// let metrics = ReporterMetrics(reporter: reporter)
    /// try await withThrowingDiscardingTaskGroup { group in
    ///     group.addTask { await metrics.run() }  // until the group is cancelled at shutdown
    ///     group.addTask { try await app.runService() }
    /// }
    /// ```
    public struct ReporterMetrics: Sendable {
        /// The reporter whose counts are published.
        public let reporter: Reporter
        /// How often the counts are read.
        public let interval: Duration
        private let factory: any MetricsFactory

        /// Metrics for `reporter`, read every `interval` (10 seconds by default) and published through `factory`.
        public init(
            reporter: Reporter, interval: Duration = .seconds(10), factory: any MetricsFactory = MetricsSystem.factory
        ) {
            self.reporter = reporter
            self.interval = interval
            self.factory = factory
        }

        /// Reads and publishes the counts every ``interval`` until the task is cancelled, then once more. Counters
        /// count what happened after `run` started: the uploader's statistics include earlier runs on the same outbox,
        /// which are not counted again.
        public func run() async {
            var publisher = MetricsPublisher(factory: factory)
            var published = await StatisticsSample(of: reporter)
            publisher.publish(published, since: published)
            while true {
                let cancelled = (try? await Task.sleep(for: interval)) == nil
                let sample = await StatisticsSample(of: reporter)
                publisher.publish(sample, since: published)
                published = sample
                if cancelled { return }
            }
        }
    }
#endif
