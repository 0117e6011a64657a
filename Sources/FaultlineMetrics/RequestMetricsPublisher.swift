#if SwiftMetrics
    import CoreMetrics
    import FaultlineRecords
    import FaultlineReporting

    /// Publishes the requests a reporter counted since the last reading: by route and outcome as counter increments,
    /// and their durations into a timer per route, each at the middle of its histogram bucket (within 1/32 of the
    /// duration it stands for). One metric object per name and dimensions, kept.
    struct RequestMetricsPublisher {
        let factory: any MetricsFactory
        private var counters: [String: Counter] = [:]
        private var timers: [String: CoreMetrics.Timer] = [:]

        /// The route the requests past the reporter's route limits are published under.
        static let overflowRoute = "(other routes)"

        init(factory: any MetricsFactory) {
            self.factory = factory
        }

        /// Publishes what `totals` counted past `earlier`.
        mutating func publish(_ totals: RequestTotals, since earlier: RequestTotals) {
            for (route, tally) in totals.routes {
                publish(tally, since: earlier.routes[route], method: route.method, route: route.route)
            }
            publish(totals.overflow, since: earlier.overflow, method: "", route: Self.overflowRoute)
        }

        private mutating func publish(
            _ tally: RequestOutcomes.Tally, since earlier: RequestOutcomes.Tally?, method: String, route: String
        ) {
            for (outcome, count) in tally.outcomes {
                let added = count - (earlier?.outcomes[outcome] ?? 0)
                if added > 0 {
                    counter([("method", method), ("route", route), ("outcome", outcome)]).increment(by: added)
                }
            }
            guard tally.durations.total > earlier?.durations.total ?? 0 else { return }
            let timer = timer([("method", method), ("route", route)])
            let before = Dictionary(uniqueKeysWithValues: earlier?.durations.buckets.map { ($0, $1) } ?? [])
            for bucket in tally.durations.buckets {
                let added = bucket.count - (before[bucket.lowerBound] ?? 0)
                guard added > 0 else { continue }
                let nanoseconds = Int64(tally.durations.middle(ofBucketFrom: bucket.lowerBound) * 1000)
                for _ in 0..<added { timer.recordNanoseconds(nanoseconds) }
            }
        }

        private mutating func counter(_ dimensions: [(String, String)]) -> Counter {
            let key = dimensions.map { "\($0)=\($1)" }.joined(separator: "|")
            if let counter = counters[key] { return counter }
            let counter = Counter(label: "faultline_sdk_requests_total", dimensions: dimensions, factory: factory)
            counters[key] = counter
            return counter
        }

        private mutating func timer(_ dimensions: [(String, String)]) -> CoreMetrics.Timer {
            let key = dimensions.map { "\($0)=\($1)" }.joined(separator: "|")
            if let timer = timers[key] { return timer }
            let timer = CoreMetrics.Timer(
                label: "faultline_sdk_request_duration_seconds", dimensions: dimensions, preferredDisplayUnit: .seconds,
                factory: factory)
            timers[key] = timer
            return timer
        }
    }
#endif
