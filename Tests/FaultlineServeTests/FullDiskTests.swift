import FaultlineLogReading
import FaultlineReporting
import FaultlineTestServer
import FaultlineTriage
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A disk that runs out of space, a real one (a small tmpfs): the reporter and serve write nothing half, count each
/// event they could not write with a reason, and work again as soon as space returns.
@Suite struct FullDiskTests {
    @Test func aReporterOnAFullDiskCountsEachEventItCouldNotWriteAndDeliversAgainOnceSpaceReturns() async throws {
        let disk = try SmallDisk(bytes: 1 << 20)
        defer { disk.remove() }
        let serveLogs = try ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: serveLogs) }
        let appLogs = disk.url.appendingPathComponent("app")
        let (captured, after) = (40, 12)
        let (failed, received) = try await ServeFixture.run(logs: serveLogs) { serve in
            // Given a reporter whose log rotates every few events, on a disk that fills up after its first events:
            // the rotation due while it is full cannot write its gzip file
            var options = Reporter.Options(logDirectory: appLogs)
            options.dsn = try DSN(serve.dsn)
            options.maxLogFileSize = 4096
            // (a request is not given up for slowness here: one sent again after its timeout, as a sanitizer's
            // slowdown once passed, would carry its client report twice)
            options.configureDelivery = { $0.requestTimeout = slowed(.seconds(120)) }
            let reporter = try Reporter(options: options)
            for index in 0..<3 { await reporter.capture(message: "before the disk filled \(index)") }
            #expect(await reporter.flush(timeout: patience))
            try disk.fill()

            // When it captures events while the disk is full
            for index in 0..<captured { await reporter.capture(message: "while the disk was full \(index)") }
            _ = await reporter.flush(timeout: .seconds(2))
            let failed = await reporter.statistics.failedWrites
            // and again once space returns
            disk.free()
            for index in 0..<after { await reporter.capture(message: "after space returned \(index)") }
            #expect(await reporter.flush(timeout: patience))
            #expect(await reporter.close(timeout: patience))
            return (failed, try await serve.metrics())
        }

        // Then it could not write some events, and said why
        #expect(failed > 0)
        // and every event is delivered or counted, those not written in a client report as internal_sdk_error
        let messages = Self.messages(in: serveLogs)
        let whileFull = messages.filter { $0.hasPrefix("while the disk was full") }.count
        #expect(whileFull + failed == captured, "\(whileFull) delivered, \(failed) not written")
        #expect(
            received[#"faultline_client_discarded_events_total{reason="internal_sdk_error",category="error"}"#]
                == failed)
        // and what it captured after space returned is delivered, as is what it captured before
        #expect(messages.filter { $0.hasPrefix("after space returned") }.count == after)
        #expect(messages.filter { $0.hasPrefix("before the disk filled") }.count == 3)
        // And its log holds whole lines only, nothing half written, what the failed rotation left compressed by a
        // later one
        let scan = await LogScan(files: try LogFile.all(in: appLogs), filter: EventFilter())
        #expect(scan.counts.notJSON == 0 && scan.counts.notUTF8 == 0 && scan.counts.notAnEvent == 0)
        #expect(scan.counts.truncatedGzip == 0 && scan.counts.corruptGzip == 0 && scan.counts.unreadableFiles == 0)
        #expect(scan.events == 3 + whileFull + after)
        let names = try FileManager.default.contentsOfDirectory(atPath: appLogs.path)
        #expect(
            names.filter { $0.hasSuffix(".tmp") || $0.hasSuffix(".jsonl") && $0 != "events.jsonl" }.isEmpty, "\(names)")
    }

    @Test func serveOnAFullDiskAnswers503AndStoresWhatTheSDKSendsAgainOnceSpaceReturns() async throws {
        let disk = try SmallDisk(bytes: 1 << 20)
        defer { disk.remove() }
        let serveLogs = disk.url.appendingPathComponent("serve")
        let app = try TemporaryDirectory("app")
        defer { app.remove() }
        try await ServeFixture.run(logs: serveLogs) { serve in
            // Given serve whose log is on a disk that is full: what is left of the log's last page takes a few events
            try disk.fill()
            var refusal: HTTPURLResponse?
            for index in 0..<200 where refusal == nil {
                let envelope = RelayFixture.eventEnvelope(RelayFixture.eventID(run: 0xD1, index))
                let (status, response) = try await serve.send(
                    "/api/1/envelope/", body: envelope, headers: ServeFixture.auth)
                if status != 200 { refusal = response }
            }
            // Then serve refuses what it cannot write with a 503 that says when to come back
            let refused = try #require(refusal)
            #expect(refused.statusCode == 503)
            #expect(refused.value(forHTTPHeaderField: "Retry-After") != nil)
            #expect(refused.value(forHTTPHeaderField: "X-Sentry-Error")?.contains("could not be written") == true)

            // When an SDK sends events meanwhile, and space returns
            var options = Reporter.Options(logDirectory: app.url)
            options.dsn = try DSN(serve.dsn)
            let reporter = try Reporter(options: options)
            for index in 0..<5 { await reporter.capture(message: "sent to a full disk \(index)") }
            #expect(await reporter.flush(timeout: .seconds(2)) == false)
            disk.free()

            // Then the SDK's retries are stored, each once
            #expect(await reporter.flush(timeout: patience))
            #expect(await reporter.close(timeout: patience))
        }
        let messages = Self.messages(in: serveLogs)
        #expect(
            messages.filter { $0.hasPrefix("sent to a full disk") }.sorted()
                == (0..<5).map { "sent to a full disk \($0)" })
        // and serve's log holds whole lines only, and its statistics count what it could not store
        let scan = await LogScan(files: try LogFile.all(in: serveLogs), filter: EventFilter())
        #expect(scan.counts.notJSON == 0 && scan.counts.notUTF8 == 0 && scan.counts.notAnEvent == 0)
        #expect(IngestStatistics.stored(in: serveLogs).dropped["unavailable", default: 0] > 0)
    }

    @Test func aRelayWhoseQueueIsOnAFullDiskRefusesWithout200AndForwardsOnceSpaceReturns() async throws {
        let disk = try SmallDisk(bytes: 1 << 20)
        defer { disk.remove() }
        let relayLogs = disk.url.appendingPathComponent("relay")
        try await RecordingIngest.run { upstream in
            // Given a relay that keeps no local log, its forward queue on a disk that is full, its upstream down
            await upstream.recorder.answerAll(.init(status: 503))
            let forwarding = try RelayFixture.forwarding(to: upstream.dsn(), storesLocally: false)
            try await ServeFixture.run(logs: relayLogs, forwarding: forwarding) { relay in
                try disk.fill()
                // When SDKs send events until the queue cannot take one
                var accepted: [String] = []
                var refusal: HTTPURLResponse?
                for index in 0..<200 where refusal == nil {
                    let id = RelayFixture.eventID(run: 0xD2, index)
                    let (status, response) = try await relay.send(
                        "/api/1/envelope/", body: RelayFixture.eventEnvelope(id), headers: ServeFixture.auth)
                    if status == 200 { accepted.append(id) } else { refusal = response }
                }
                // Then the one it cannot queue is refused, so that the SDK keeps it
                #expect(try #require(refusal).statusCode == 503)
                #expect(refusal?.value(forHTTPHeaderField: "Retry-After") != nil)

                // And once space returns and the upstream is back, the refused event sent again and every one it
                // accepted are forwarded
                disk.free()
                let retried = RelayFixture.eventID(run: 0xD2, accepted.count)
                let (status, _) = try await relay.post(
                    "/api/1/envelope/", body: RelayFixture.eventEnvelope(retried), headers: ServeFixture.auth)
                #expect(status == 200)
                await upstream.recorder.answerAll(.init(status: 200))
                try await RelayFixture.waitUntilNothingIsQueued(in: relay)
                let forwarded = try await RelayFixture.received(by: upstream.recorder).filter { $0.status == 200 }
                #expect(Set(forwarded.flatMap(\.eventIDs)) == Set(accepted + [retried]))
            }
        }
    }

    /// The messages of the events in the logs of `directory`.
    private static func messages(in directory: URL) -> [String] {
        var reader = LogReader()
        var messages: [String] = []
        for file in (try? LogFile.all(in: directory)) ?? [] { reader.read(file) { messages.append($0.message ?? "") } }
        return messages
    }
}
