import FaultlineLogReading
import FaultlineRecords
import FaultlineReporting
import FaultlineTestServer
import Foundation
import LoopbackPorts
import TestSupport
import Testing

/// A reporter writes each event once, to its local log, and its uploader sends the events from there: what an outage
/// or a restart leaves is sent by the next run from its cursor (across rotated files), what the log's cap evicts
/// unsent is counted as `cache_overflow` (and reported by the next run), and what was logged before the app had a DSN
/// is never sent.
@Suite struct LogDeliveryTests {
    @Test func envelopesAnEarlierVersionLeftInTheOutboxAreSentByTheNextRun() async throws {
        let logs = try TemporaryDirectory()
        defer { logs.remove() }
        // Given an outbox segment an earlier version of the reporter stored an envelope in
        let envelope = try DeliveryFixtures.envelope("left in the outbox")
        let id = try #require(envelope.header["event_id"]?.stringValue)
        var outbox = try DurableQueue<EnvelopeSegments<DataCategory>>(
            outboxIn: logs.file("outbox"), limits: OutboxLimits())
        _ = try outbox.store(envelope.serialized(), category: DataCategory.error)
        outbox.closeFiles()

        // When a reporter starts with the endpoint up
        try await RecordingIngest.run { ingest in
            let reporter = try Self.reporter(logs: logs.url, dsn: ingest.dsn())
            #expect(await reporter.close(timeout: patience))

            // Then the envelope arrives, and nothing waits in the outbox any more
            #expect(try await DeliveryFixtures.acceptedEventIDs(ingest.recorder) == [id])
            #expect(await reporter.uploader?.pendingCount == 0)
        }
    }

    @Test func eventsLeftByARunThatCouldNotSendAreSentOnceInOrderByTheNextRunFromItsLog() async throws {
        let logs = try TemporaryDirectory()
        defer { logs.remove() }
        // Given a run whose endpoint is down, with a log that rotates every 4 KiB
        let closed = try ClosedPort()
        var logged: [String] = []
        do {
            let reporter = try Self.reporter(logs: logs.url, dsn: Self.dsn(port: closed.port))
            for index in 0..<40 {
                logged.append(try #require(await reporter.capture(message: "outage \(index)", level: .error)))
            }
            #expect(await reporter.close(timeout: .milliseconds(300)) == false)
            #expect(await reporter.uploader?.pendingCount == 40)
        }
        // and nothing but the log holds the events: no envelope was written beside it, and no outbox was opened
        let outbox = try FileManager.default.contentsOfDirectory(atPath: logs.file("outbox").path)
        #expect(
            outbox.allSatisfy { !$0.hasSuffix(".segment") && !$0.hasSuffix(".envelope") && $0 != "outbox-cursor.json" },
            "\(outbox)")
        #expect(try logs.names().contains { $0.hasSuffix(".jsonl.gz") }, "the log rotated")
        closed.release()
        let captured = logged

        // When the next run starts with the endpoint back
        try await RecordingIngest.run(port: closed.port) { ingest in
            let reporter = try Self.reporter(logs: logs.url, dsn: ingest.dsn())
            #expect(await reporter.close(timeout: patience))

            // Then every event arrives once
            #expect(try await DeliveryFixtures.acceptedEventIDs(ingest.recorder).sorted() == captured.sorted())
        }
    }

    /// The events of the backlog test, and how many of them the uploader indexes.
    private static let backlog = 1_500
    private static let indexedLines = 1_000

    @Test func aBacklogLargerThanTheIndexIsReadBackFromTheLogAndSentOnce() async throws {
        let logs = try TemporaryDirectory()
        defer { logs.remove() }
        // Given a run whose endpoint is down that logs more events than the uploader indexes in memory (lowered from
        // 10 000 to 1 000, so that the backlog is reached with few events to send)
        let closed = try ClosedPort()
        var options = Reporter.Options(logDirectory: logs.url)
        options.dsn = try DSN(Self.dsn(port: closed.port))
        options.maxLogFileSize = 256 * 1024
        options.maxQueueSize = 20_000
        options.configureDelivery = { $0.maxIndexedLines = Self.indexedLines }
        var logged: [String] = []
        do {
            let reporter = try Reporter(options: options)
            for index in 0..<Self.backlog {
                logged.append(try #require(await reporter.capture(message: "backlog \(index)", level: .error)))
            }
            // (written for as long as writing moves: a full run on 2 cores has taken over a minute for it)
            let written = { await reporter.statistics.captured.values.reduce(0, +) }
            try await wait(for: "the backlog's writing", progressing: written) { await written() == Self.backlog }
            #expect(await reporter.close(timeout: .zero) == false)
            let pending = await reporter.uploader?.pendingCount
            #expect(pending == Self.backlog)
        }
        closed.release()
        let captured = logged
        // (the whole backlog waits in the log after the run's cursor, as the next run will find it)
        #expect(DeliveryBacklog.inLog(.events, of: LogLayout(logs.url)).records == Self.backlog)

        // When the next run starts with the endpoint back
        try await RecordingIngest.run(port: closed.port, recorder: IngestRecorder(keepsBodies: true)) { ingest in
            let reporter = try Self.reporter(logs: logs.url, dsn: ingest.dsn(), indexedLines: Self.indexedLines)
            try await wait(for: "the backlog's delivery", progressing: { await ingest.recorder.requests.count }) {
                await reporter.uploader?.pendingCount == 0
            }
            #expect(await reporter.close(timeout: patience))

            // Then every event arrives once
            let received = try await DeliveryFixtures.acceptedEventIDs(ingest.recorder)
            #expect(received.count == Self.backlog)
            #expect(Set(received) == Set(captured))
        }
    }

    @Test func eventsTheLogsCapEvictsBeforeTheyAreSentAreCountedAsCacheOverflowAndReported() async throws {
        let logs = try TemporaryDirectory()
        defer { logs.remove() }
        let closed = try ClosedPort()
        // Given a run whose endpoint is down, with a log that keeps its active file and the newest rotated one
        var options = Reporter.Options(logDirectory: logs.url)
        options.dsn = try DSN(Self.dsn(port: closed.port))
        options.maxLogFileSize = 1
        options.maxLogSize = 1
        let reporter = try Reporter(options: options)

        // When 10 events are captured, each rotating the one before out of the active file
        for index in 0..<10 { await reporter.capture(message: "overflow \(index)", level: .error) }
        #expect(await reporter.flush(timeout: .milliseconds(300)) == false)

        // Then the 8 whose files were evicted are counted, and the 2 the log still holds wait
        let overflow = DiscardedEvents(reason: .cacheOverflow, category: .error, quantity: 8)
        #expect(await reporter.uploader?.statistics.discarded == [overflow])
        #expect(await reporter.uploader?.pendingCount == 2)
        _ = await reporter.close(timeout: .zero)
        // (which `faultline stats` finds from the cursor the run left: 2 events in the log; the 8 wait for a client
        // report in the statistics stored beside the outbox, which holds no envelope)
        let backlog = DeliveryBacklog.inLog(.events, of: LogLayout(logs.url))
        #expect(backlog.records == 2)
        #expect(backlog.bytes > 0)
        #expect(DeliveryBacklog.inOutbox(options.outboxDirectory).envelopes == 0)
        #expect(DeliveryStatistics.stored(in: options.outboxDirectory).unreported == DiscardCounts([overflow]))
        closed.release()
        let firstRun = options

        // and the next run sends the 2, with a client report of the 8
        try await RecordingIngest.run(port: closed.port) { ingest in
            let next = try Reporter(options: firstRun.sending(to: ingest.dsn()))
            #expect(await next.close(timeout: patience))
            let envelopes = try await DeliveryFixtures.envelopes(ingest.recorder)
            #expect(envelopes.flatMap(\.items).filter { $0.type == "event" }.count == 2)
            let reports = envelopes.flatMap(\.items).filter { $0.type == "client_report" }.map {
                String(decoding: $0.payload, as: UTF8.self)
            }
            #expect(reports.contains { $0.contains(#""quantity":8"#) && $0.contains(#""reason":"cache_overflow""#) })
        }
    }

    @Test func whatWasLoggedBeforeTheAppHadADSNIsNeverSent() async throws {
        let logs = try TemporaryDirectory()
        defer { logs.remove() }
        // Given a run without a DSN that logged 3 events
        let local = try Reporter(options: Reporter.Options(logDirectory: logs.url))
        for index in 0..<3 { await local.capture(message: "local \(index)") }
        #expect(await local.close())

        try await RecordingIngest.run { ingest in
            // When a run with a DSN logs 2 more
            let reporter = try Self.reporter(logs: logs.url, dsn: ingest.dsn())
            let sent = [
                await reporter.capture(message: "sent 1"), await reporter.capture(message: "sent 2"),
            ].compactMap { $0 }
            #expect(await reporter.close(timeout: patience))

            // Then only those 2 are sent
            #expect(try await DeliveryFixtures.acceptedEventIDs(ingest.recorder).sorted() == sent.sorted())
        }
    }

    @Test func aReporterWhoseKeyTheEndpointRefusesKeepsItsEventsAndSaysItDidNotDeliverThem() async throws {
        let logs = try TemporaryDirectory()
        defer { logs.remove() }
        try await RecordingIngest.run { ingest in
            // Given an endpoint that refuses the reporter's key, as Sentry answers a wrong DSN
            await ingest.recorder.answerAll(.init(status: 403, headers: ["X-Sentry-Error": "unknown sentry_key"]))
            let reporter = try Self.reporter(logs: logs.url, dsn: ingest.dsn())

            // When the app captures two events and closes once the endpoint refused them
            await reporter.capture(message: "refused 1", level: .error)
            await reporter.capture(message: "refused 2", level: .error)
            let uploader = try #require(reporter.uploader)
            try await wait(for: "both events refused") { await uploader.statistics.retried >= 2 }
            let delivered = await reporter.close(timeout: .milliseconds(200))

            // Then close says they were not delivered, the statistics say why, and both still wait, none dropped
            #expect(delivered == false)
            let statistics = await uploader.statistics
            #expect(statistics.lastFailure?.status == 403)
            #expect(statistics.lastFailure?.reason == "unknown sentry_key")
            #expect(statistics.discarded.isEmpty)
            #expect(await uploader.pendingCount == 2)
        }
    }

    private static func dsn(port: Int) -> String {
        "http://0123456789abcdef0123456789abcdef@127.0.0.1:\(port)/1"
    }

    /// A reporter sending to `dsn` with the delivery tests' short intervals, whose log rotates every 4 KiB.
    private static func reporter(logs: URL, dsn: String, indexedLines: Int = 10_000) throws -> Reporter {
        var options = Reporter.Options(logDirectory: logs)
        options.maxLogFileSize = 4 * 1024
        options.dsn = try DSN(dsn)
        options.configureDelivery = {
            DeliveryFixtures.tune(&$0)
            $0.maxIndexedLines = indexedLines
        }
        return try Reporter(options: options)
    }
}

extension Reporter.Options {
    /// The same options, sending to `dsn`.
    fileprivate func sending(to dsn: String) throws -> Reporter.Options {
        var options = self
        options.dsn = try DSN(dsn)
        return options
    }
}
