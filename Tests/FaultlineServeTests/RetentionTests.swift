import FaultlineLogReading
import FaultlineReporting
import FaultlineServe
import FaultlineTriage
import Foundation
import TestSupport
import Testing

/// A maximum age drops what waited past it, whole files at a time, counts it apart from what the size caps drop, and
/// reports the undelivered events upstream as `cache_overflow`: an app's log (`Reporter.Options.maxLogAge`), and
/// serve's log and forward queue (`serve --max-age`).
@Suite struct RetentionTests {
    @Test func anAppsEventsThatWaitedPastTheAgeAreDroppedCountedAndReported() async throws {
        let app = try TemporaryDirectory("retention-app")
        let serveLogs = try TemporaryDirectory("retention-serve")
        defer {
            app.remove()
            serveLogs.remove()
        }
        // Given an app that logs 10 events while serve is down, under a maximum age of a day
        let ingest = try await OutageFixture.downIngest(logs: serveLogs.url)
        let clock = FakeClock(Date())
        var options = try OutageFixture.appOptions(logs: app.url, sendingTo: ingest)
        options.maxLogAge = .seconds(24 * 3600)
        options.clock = { clock.date }
        var reporter = try Reporter(options: options)
        for index in 0..<10 { await reporter.capture(message: "old \(index)", level: .error) }
        #expect(try await eventually { await reporter.statistics.captured.values.reduce(0, +) == 10 })
        _ = await reporter.close(timeout: .zero)

        // When it starts again two days later, logs one event, and serve is back
        clock.advance(by: .seconds(2 * 24 * 3600))
        reporter = try Reporter(options: options)
        await reporter.capture(message: "new", level: .error)
        try await ingest.restart()
        #expect(await reporter.flush(timeout: patience))
        _ = await reporter.close()
        try await ingest.stop()

        // Then serve got the new event only, and the app's client report of the 10 it dropped by age
        let scan = try await LogScan(files: LogFile.all(in: serveLogs.url), filter: EventFilter())
        #expect(scan.events == 1)
        #expect(IngestStatistics.stored(in: serveLogs.url).droppedBySDKs == ["cache_overflow/error": 10])
        // and the app counts them as expired, apart from what the size cap drops
        let statistics = DeliveryStatistics.stored(in: options.outboxDirectory)
        #expect(statistics.expired == [.init(reason: .cacheOverflow, category: .error, quantity: 10)])
        #expect(statistics.discarded.isEmpty)
        let stats = try await BuiltFaultline.run(["stats", "--log-dir", app.path])
        #expect(
            String(decoding: stats, as: UTF8.self).contains("dropped by age (reported as cache_overflow): error 10"))
    }

    @Test func serveRemovesItsLogAndForwardQueueFilesPastTheAgeAndReportsTheQueuedEventsUpstream() async throws {
        let relayLogs = try TemporaryDirectory("retention-relay")
        let upstreamLogs = try TemporaryDirectory("retention-upstream")
        defer {
            relayLogs.remove()
            upstreamLogs.remove()
        }
        // Given serve with a maximum age of 2 seconds forwarding to an upstream that is down
        let upstream = try await OutageFixture.downIngest(logs: upstreamLogs.url, publicKey: RelayFixture.upstreamKey)
        let (relay, port) = try await ServeFixture.launch(
            logs: relayLogs.url, ["--max-age", "2s", "--forward", upstream.dsn])
        defer { relay.kill() }
        let serve = ServeFixture(logs: relayLogs.url, port: port)
        for index in 0..<3 {
            let (status, _) = try await serve.post(
                "/api/1/envelope/", body: RelayFixture.eventEnvelope(String(format: "%032x", index + 1)),
                headers: ServeFixture.auth)
            #expect(status == 200)
        }

        // When the age passes, its log's file and the queue's segment are removed, and counted as removed by age
        #expect(
            try await eventually {
                let stats = try await Self.stats(of: relayLogs)
                let ingest = stats["ingest"] as? [String: Any]
                let queue = (stats["forward"] as? [[String: Any]])?.first
                let expired = (queue?["delivery"] as? [String: Any])?["expired"] as? [[String: Any]]
                // (one file, or one per event when a loaded machine appended them a 24th of the age apart)
                return (ingest?["log_files_expired"] as? Int ?? 0) >= 1 && expired?.first?["quantity"] as? Int == 3
            })
        let stats = try await Self.stats(of: relayLogs)
        #expect((stats["ingest"] as? [String: Any])?["log_files_evicted"] as? Int == 0)
        #expect(try await LogScan(files: LogFile.all(in: relayLogs.url), filter: EventFilter()).events == 0)

        // and once the upstream is back, the next envelope forwarded carries the report of the 3 dropped
        try await upstream.restart()
        let (status, _) = try await serve.post(
            "/api/1/envelope/", body: RelayFixture.eventEnvelope(String(format: "%032x", 99)),
            headers: ServeFixture.auth)
        #expect(status == 200)
        #expect(
            try await eventually {
                IngestStatistics.stored(in: upstreamLogs.url).droppedBySDKs["cache_overflow/error"] == 3
            })
        relay.terminate()
        _ = try await relay.exit()
        try await upstream.stop()
        #expect(try await LogScan(files: LogFile.all(in: upstreamLogs.url), filter: EventFilter()).events == 1)
    }

    private static func stats(of logs: TemporaryDirectory) async throws -> [String: Any] {
        let output = try await BuiltFaultline.run(["stats", "--json", "--log-dir", logs.path])
        return try #require(try JSONSerialization.jsonObject(with: output) as? [String: Any])
    }
}
