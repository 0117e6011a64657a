#if SwiftMetrics
    import Faultline
    import FaultlineMetrics
    import FaultlineRecords
    import FaultlineReporting
    import FaultlineServe
    import FaultlineTestServer
    import Foundation
    import Hummingbird
    import Prometheus
    import SeedScenarios
    import TestSupport
    import Testing

    /// `Dashboards/grafana/faultline.json` against Debian's Prometheus: it scrapes a `faultline serve` that receives the
    /// demo's events, and an app that captures them and publishes `ReporterMetrics` through swift-prometheus. Every
    /// panel's expression, evaluated through Prometheus's HTTP API, returns data.
    @Suite struct GrafanaDashboardTests {
        static let dashboard = Repository.file("Dashboards/grafana/faultline.json")
        static let publicKey = "0123456789abcdef0123456789abcdef"

        @Test func everyPanelsExpressionReturnsDataFromPrometheus() async throws {
            let panels = try GrafanaPanels(dashboard: Self.dashboard)
            try #require(panels.expressions.count >= 10)
            let temporary = try TemporaryDirectory("grafana")
            defer { temporary.remove() }
            let work = temporary.url
            var ingestConfiguration = IngestConfiguration(
                logDirectory: work.appendingPathComponent("ingest"), publicKey: Self.publicKey)
            ingestConfiguration.port = 0
            let ingest = try await RunningIngest(ingestConfiguration)
            let registry = PrometheusCollectorRegistry()
            let router = Router()
            router.get("metrics") { _, _ in registry.emitToString() }

            try await LoopbackServer.run(named: "app metrics", router: router, port: 0) { app in
                let prometheus = try await PrometheusPeer(
                    targets: ["faultline-serve": "127.0.0.1:\(ingest.port)", "app": "127.0.0.1:\(app.port ?? 0)"],
                    directory: work.appendingPathComponent("prometheus"))
                defer { prometheus.stop() }
                let scraped = try await eventually { try await prometheus.series("up == 1", overLast: 2).count == 2 }
                try #require(scraped, "Prometheus did not scrape serve and the app within a minute")

                // Given an app whose reporter sends to serve, with a log that keeps a few events (one per file), and metrics
                let reporter = try Self.reporter(sendingTo: ingest.dsn, logs: work.appendingPathComponent("app"))
                let metrics = ReporterMetrics(
                    reporter: reporter, interval: .milliseconds(250),
                    factory: PrometheusMetricsFactory(registry: registry))
                let publishing = Task { await metrics.run() }

                // When the demo's scenarios run, with serve down during the demo's outage
                try await SeedServer.run { server in
                    await SeedDemo(server: server, reporter: reporter).run { _ in
                    } beforeEach: { index in
                        if index == SeedDemo.outage.lowerBound {
                            // serve's counters start again at zero when it does: Prometheus scrapes each twice first
                            _ = await reporter.flush(timeout: patience)
                            let delivered = Double(await reporter.uploader?.statistics.delivered ?? 0)
                            _ = try? await eventually {
                                let received = try await prometheus.series(
                                    "sum(faultline_events_received_total)", overLast: 1)
                                let scrapedOnce = try await prometheus.series(
                                    "count_over_time(faultline_events_received_total[1m]) < 2", overLast: 1)
                                return received.first?.values.last == delivered && scrapedOnce.isEmpty
                            }
                            try? await ingest.stop()
                        }
                        if index == SeedDemo.outage.upperBound + 1 {
                            // Serve stays down one scenario more, whose event takes the log past its cap: the outage's
                            // events are dropped before serve is back. (Restarted sooner, a loaded machine's uploader
                            // could send them before the next event evicted them, and no panel of drops had data.)
                            _ = try? await eventually {
                                await reporter.uploader?.statistics.discarded.contains { $0.reason == .cacheOverflow }
                                    ?? false
                            }
                            try? await ingest.restart()
                        }
                    }
                }
                #expect(await reporter.flush(timeout: patience))
                // and an old build still sends with a revoked key
                var revoked = Reporter.Options(logDirectory: work.appendingPathComponent("old-build"))
                revoked.dsn = try DSN(
                    ingest.dsn.replacingOccurrences(of: Self.publicKey, with: "revoked0000000000000000000000000"))
                let oldBuild = try Reporter(options: revoked)
                _ = await oldBuild.capture(message: "sent with a revoked key")
                _ = await oldBuild.close(timeout: patience)
                // and an SDK sends a session, which serve's log does not keep
                let sessions = try Uploader(
                    configuration: DeliveryConfiguration(
                        dsn: try DSN(ingest.dsn), outboxDirectory: work.appendingPathComponent("sessions")))
                let session = Data(#"{"sid":"7f6c","status":"ok","init":true}"#.utf8)
                let envelope = Envelope(header: [:], items: [.init(type: "session", payload: session)])
                #expect(await sessions.enqueue(envelope))
                #expect(await sessions.close(timeout: patience))

                // Then every panel's expressions return data
                var missing: [String] = []
                _ = try await eventually {
                    missing = []
                    for (panel, expression) in panels.expressions
                    where try await prometheus.series(expression, overLast: 120).isEmpty {
                        missing.append("\(panel): \(expression)")
                    }
                    return missing.isEmpty
                }
                #expect(missing.isEmpty, "no data for \(missing.joined(separator: "; "))")
                publishing.cancel()
                await publishing.value
                _ = await reporter.close(timeout: .zero)
            }
            try await ingest.stop()
        }

        /// A reporter delivering to `dsn` that sends soon, retries soon, and keeps a few events in its log while it cannot:
        /// the outage's six events overflow it.
        private static func reporter(sendingTo dsn: String, logs: URL) throws -> Reporter {
            var options = Reporter.Options(logDirectory: logs)
            options.release = "boleto-ios@4.2.0"
            options.dsn = try DSN(dsn)
            options.maxLogFileSize = 1
            options.maxLogSize = 20 * 1024
            options.configureDelivery = {
                $0.flushInterval = .milliseconds(100)
                $0.backoff = Backoff(initial: .milliseconds(100), multiplier: 2, maximum: .milliseconds(400), jitter: 0)
            }
            return try Reporter(options: options)
        }
    }

    /// The PromQL expressions of a Grafana dashboard's panels, with Grafana's interval variables replaced by what a
    /// one-second scrape needs: `$__rate_interval` by 5 seconds, `$__range` by 5 minutes. Reading them checks what an
    /// import needs: unique panel ids, panels inside the 24-column grid, and every query on the `DS_PROMETHEUS` input.
    private struct GrafanaPanels {
        let expressions: [(panel: String, expression: String)]

        init(dashboard: URL) throws {
            let model = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: dashboard)) as? [String: Any])
            let panels = try #require(model["panels"] as? [[String: Any]])
            let inputs = model["__inputs"] as? [[String: Any]] ?? []
            try #require(
                inputs.contains {
                    $0["name"] as? String == "DS_PROMETHEUS" && $0["pluginId"] as? String == "prometheus"
                })
            let ids = panels.compactMap { $0["id"] as? Int }
            try #require(ids.count == panels.count && Set(ids).count == ids.count, "panel ids are missing or repeated")
            var expressions: [(String, String)] = []
            for panel in panels {
                let title = panel["title"] as? String ?? "untitled"
                let grid = try #require(panel["gridPos"] as? [String: Int], "\(title) has no gridPos")
                try #require((grid["x"] ?? 0) + (grid["w"] ?? 0) <= 24, "\(title) is wider than the grid")
                guard panel["type"] as? String != "row" else { continue }
                let datasource = panel["datasource"] as? [String: String]
                try #require(
                    datasource?["uid"] == "${DS_PROMETHEUS}", "\(title) does not query the DS_PROMETHEUS input")
                let targets = panel["targets"] as? [[String: Any]] ?? []
                try #require(!targets.isEmpty, "the panel \(title) has no query")
                for target in targets {
                    let expression = try #require(target["expr"] as? String, "a query of \(title) has no expr")
                    expressions.append(
                        (
                            title,
                            expression.replacingOccurrences(of: "$__rate_interval", with: "5s")
                                .replacingOccurrences(of: "$__range", with: "5m")
                        ))
                }
            }
            self.expressions = expressions
        }
    }
#endif
