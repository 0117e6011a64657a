import FaultlineRecords

#if SwiftMetrics
    import CoreMetrics
    import FaultlineLogReading
    import FaultlineMetrics
    import FaultlineReporting
    import FaultlineServe
    import FaultlineTestServer
    import Foundation
    import MetricsTestKit
    import SeedScenarios
    import TestSupport
    import Testing

    /// `ReporterMetrics` publishes, through swift-metrics' test kit, what the reporter and its uploader counted while the
    /// seed scenarios ran against a real seed server and a rate-limiting ingest.
    @Suite struct ReporterMetricsTests {
        @Test func theSeedScenariosCountsArePublishedByKindReasonAndOutcome() async throws {
            let temporary = try TemporaryDirectory("metrics")
            defer { temporary.remove() }
            let work = temporary.url
            // Given an ingest that takes 4 events a minute, and a reporter that sends to it
            var ingestConfiguration = IngestConfiguration(
                logDirectory: work.appendingPathComponent("ingest"), publicKey: "0123456789abcdef0123456789abcdef")
            ingestConfiguration.port = 0
            ingestConfiguration.eventsPerMinute = 4
            let ingest = try await RunningIngest(ingestConfiguration)
            var options = Reporter.Options(logDirectory: work.appendingPathComponent("app"))
            options.dsn = try DSN(ingest.dsn)
            let reporter = try Reporter(options: options)
            let testMetrics = TestMetrics()
            let metrics = ReporterMetrics(reporter: reporter, interval: .milliseconds(50), factory: testMetrics)
            let publishing = Task { await metrics.run() }
            try await Self.waitForTheFirstSample(in: testMetrics)

            // When the seed scenarios run and the reporter sends what it can
            try await SeedServer.run { server in await SeedDemo(server: server, reporter: reporter).run { _ in } }
            // A short flush on purpose: the ingest takes 4 events a minute, so events still wait, for the outbox gauge
            // the test reads below. The reporter is closed before the last reading, so that nothing it sends after
            // that reading (a loaded run can outlast the ingest's minute) changes what the test compares it with.
            _ = await reporter.flush(timeout: slowed(.seconds(2)))
            _ = await reporter.close(timeout: .zero)
            publishing.cancel()
            await publishing.value
            try await ingest.stop()

            // Then every count is published under its dimension
            let statistics = await reporter.statistics
            let uploader = try #require(reporter.uploader)
            let delivery = await uploader.statistics
            for (kind, count) in statistics.captured {
                let counter = try testMetrics.expectCounter("faultline_sdk_events_captured_total", [("kind", kind)])
                #expect(counter.totalValue == Int64(count), "\(kind)")
            }
            #expect(statistics.captured.values.reduce(0, +) > 4)
            #expect(statistics.refreshes > 0 && statistics.sessionExpiries > 0)
            for (outcome, count) in [("refreshed", statistics.refreshes), ("expired", statistics.sessionExpiries)] {
                let counter = try testMetrics.expectCounter(
                    "faultline_sdk_token_refreshes_total", [("outcome", outcome)])
                #expect(counter.totalValue == Int64(count))
            }
            for discarded in delivery.discarded where discarded.category == .error {
                let counter = try testMetrics.expectCounter(
                    "faultline_sdk_events_dropped_total", [("reason", discarded.reason.rawValue)])
                #expect(counter.totalValue == Int64(discarded.quantity))
            }
            // past the ingest's limit of 4 events a minute (more when a loaded run took longer), the rest wait in the
            // log; the envelopes delivered are counted as the uploader counted them: events and each interval of
            // request outcomes the reporter wrote
            let outcomes = try String(
                contentsOf: LogLayout(work.appendingPathComponent("app")).requests
                    .appendingPathComponent("outcomes.jsonl"), encoding: .utf8)
            let intervals = outcomes.split(separator: "\n").count
            let stored = try String(
                contentsOf: work.appendingPathComponent("ingest/events.jsonl"), encoding: .utf8
            ).split(separator: "\n").count
            #expect(intervals >= 1 && stored >= 4)
            #expect(
                try testMetrics.expectCounter("faultline_sdk_events_delivered_total").totalValue
                    == Int64(delivery.delivered))
            // and every request the reporter counted, by route and outcome, with one duration each
            var requests: [RequestOutcomes.Route: RequestOutcomes.Tally] = [:]
            for line in outcomes.split(separator: "\n") {
                for (route, tally) in try RequestOutcomes(line: Data(line.utf8)).routes {
                    requests[route, default: RequestOutcomes.Tally()].merge(tally)
                }
            }
            #expect(requests[RequestOutcomes.Route(method: "GET", route: "/boleto/users/{id}")]?.requests ?? 0 >= 100)
            for (route, tally) in requests {
                let dimensions = [("method", route.method), ("route", route.route)]
                for (outcome, count) in tally.outcomes {
                    let counter = try testMetrics.expectCounter(
                        "faultline_sdk_requests_total", dimensions + [("outcome", outcome)])
                    #expect(counter.totalValue == Int64(count), "\(route.route) \(outcome)")
                }
                let timer = try testMetrics.expectTimer("faultline_sdk_request_duration_seconds", dimensions)
                #expect(timer.values.count == tally.requests, "\(route.route)")
            }
            let outbox = try testMetrics.expectGauge("faultline_sdk_outbox_envelopes")
            #expect(outbox.lastValue == Double(await uploader.pendingCount))
            if stored < statistics.captured.values.reduce(0, +) { #expect((outbox.lastValue ?? 0) > 0) }
        }

        @Test func kindsOutsideTheKnownSetAreCountedAsOtherAndDropsWithoutAnUploaderStillCount() async throws {
            let temporary = try TemporaryDirectory("metrics")
            defer { temporary.remove() }
            let work = temporary.url
            // Given a reporter without a DSN whose beforeSend renames one kind per event and drops "secret" messages
            var options = Reporter.Options(logDirectory: work)
            options.beforeSend = { event in
                guard event.message != "secret" else { return nil }
                var renamed = event
                renamed.tags["error.kind"] = "custom-\(UUID())"
                return renamed
            }
            let reporter = try Reporter(options: options)
            let testMetrics = TestMetrics()
            let metrics = ReporterMetrics(reporter: reporter, interval: .milliseconds(20), factory: testMetrics)
            let publishing = Task { await metrics.run() }
            try await Self.waitForTheFirstSample(in: testMetrics)

            for index in 0..<5 { _ = await reporter.capture(message: "message \(index)") }
            _ = await reporter.capture(message: "secret")
            _ = await reporter.flush(timeout: patience)
            publishing.cancel()
            await publishing.value

            #expect(
                try testMetrics.expectCounter("faultline_sdk_events_captured_total", [("kind", "other")]).totalValue
                    == 5)
            #expect(testMetrics.counters.filter { $0.label == "faultline_sdk_events_captured_total" }.count == 1)
            let dropped = try testMetrics.expectCounter(
                "faultline_sdk_events_dropped_total", [("reason", "before_send")])
            #expect(dropped.totalValue == 1)
            #expect(try testMetrics.expectGauge("faultline_sdk_outbox_envelopes").lastValue == 0)
            _ = await reporter.close()
        }

        /// Waits until `run` has read its first sample, the baseline its counters count from.
        private static func waitForTheFirstSample(in metrics: TestMetrics) async throws {
            try await wait(for: "ReporterMetrics.run's first sample") {
                (try? metrics.expectGauge("faultline_sdk_outbox_envelopes")) != nil
            }
        }
    }
#endif
