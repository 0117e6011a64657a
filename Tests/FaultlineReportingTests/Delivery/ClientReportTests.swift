import FaultlineLogReading
import FaultlineRecords
import FaultlineReporting
import FaultlineTestServer
import Foundation
import LoopbackPorts
import TestSupport
import Testing

/// Client reports are read from the uploader's ledger: what was dropped and no report carried yet, stored with the
/// statistics beside the outbox, so each drop is reported once, across runs, and never as an envelope of its own in
/// the outbox.
@Suite struct ClientReportTests {
    @Test func aClientReportTheEndpointRefusesForGoodIsNotSentAgain() async throws {
        let outbox = try TemporaryDirectory()
        defer { outbox.remove() }
        try await RecordingIngest.run { ingest in
            // Given an ingest that refuses an event as too large, then the client report of it as malformed
            await ingest.recorder.answerNext([.init(status: 413), .init(status: 400)])
            let uploader = try DeliveryFixtures.uploader(dsn: ingest.dsn(), outbox: outbox.url, over: .urlSession)
            #expect(await uploader.enqueue(try DeliveryFixtures.envelope("too large")))
            #expect(await uploader.flush(timeout: patience) == false)

            // When the app flushes twice with nothing else to send
            #expect(await uploader.flush(timeout: patience) == false)  // the report, refused
            #expect(await uploader.flush(timeout: patience))

            // Then the report was sent once, and its counts are settled as reported, not sent again
            let envelopes = try await DeliveryFixtures.envelopes(ingest.recorder)
            #expect(envelopes.map { $0.items.map(\.type) } == [["event"], ["client_report"]])
            #expect(await uploader.statistics.unreported == DiscardCounts())
            #expect(await uploader.statistics.discarded == [.init(reason: .sendError, category: .error, quantity: 1)])
            await uploader.close(timeout: .zero)
        }
    }

    @Test func whatARunCouldNotReportTheNextRunReportsOnce() async throws {
        let logs = try TemporaryDirectory()
        defer { logs.remove() }
        let closed = try ClosedPort()
        // Given a run whose endpoint is down, that samples no event, and captured 3
        var options = Reporter.Options(logDirectory: logs.url)
        options.dsn = try DSN("http://0123456789abcdef0123456789abcdef@127.0.0.1:\(closed.port)/1")
        options.sampleRate = 0
        options.configureDelivery = { DeliveryFixtures.tune(&$0) }
        let first = try Reporter(options: options)
        for _ in 0..<3 { await first.capture(message: "not sampled") }
        #expect(await first.close(timeout: .milliseconds(200)) == false)

        // (the 3 wait for a report in the statistics beside the outbox, not as an envelope in it)
        let notSampled = DiscardCounts([.init(reason: .sampleRate, category: .error, quantity: 3)])
        #expect(DeliveryStatistics.stored(in: options.outboxDirectory).unreported == notSampled)
        #expect(DeliveryBacklog.inOutbox(options.outboxDirectory).envelopes == 0)
        closed.release()
        let later = options

        try await RecordingIngest.run(port: closed.port) { ingest in
            // When two more runs start and close with the endpoint up
            for _ in 0..<2 {
                let next = try Reporter(options: later)
                #expect(await next.close(timeout: patience))
            }

            // Then the first of them reported the 3, and the second had nothing to report
            let envelopes = try await DeliveryFixtures.envelopes(ingest.recorder)
            #expect(envelopes.map { $0.items.map(\.type) } == [["client_report"]])
            #expect(try DeliveryFixtures.discardedEvents(in: envelopes) == ["sample_rate/error": 3])
            #expect(DeliveryStatistics.stored(in: later.outboxDirectory).unreported == DiscardCounts())
        }
    }

    @Test func statisticsStoredBeforeReportsWereCountedInThemReportNothingAgain() async throws {
        let outbox = try TemporaryDirectory()
        defer { outbox.remove() }
        // Given the statistics of an earlier version, whose drops went out in client reports stored in the outbox
        let earlier = #"""
            {"delivered": 3, "retried": 0, "discarded": [{"reason": "send_error", "category": "error", "quantity": 5}],
             "expired": [{"reason": "cache_overflow", "category": "transaction", "quantity": 2}]}
            """#
        try Data(earlier.utf8).write(to: outbox.url.appendingPathComponent(DeliveryStatistics.fileName))
        #expect(DeliveryStatistics.stored(in: outbox.url).discarded.count == 1)  // read, as a positive control

        try await RecordingIngest.run { ingest in
            // When an uploader over that outbox sends an event
            let uploader = try DeliveryFixtures.uploader(dsn: ingest.dsn(), outbox: outbox.url, over: .urlSession)
            #expect(await uploader.enqueue(try DeliveryFixtures.envelope()))
            #expect(await uploader.close(timeout: patience))

            // Then the event goes alone: the earlier drops are not reported a second time
            let envelopes = try await DeliveryFixtures.envelopes(ingest.recorder)
            #expect(envelopes.map { $0.items.map(\.type) } == [["event"]])
            #expect(DeliveryStatistics.stored(in: outbox.url).delivered == 4)
        }
    }
}
