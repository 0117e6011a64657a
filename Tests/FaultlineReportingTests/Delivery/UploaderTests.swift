import FaultlineLogReading
import FaultlineRecords
import FaultlineReporting
import FaultlineTestServer
import Foundation
import LoopbackPorts
import TestSupport
import Testing

/// Delivery to a Sentry-compatible endpoint through the outbox, against a recording ingest on loopback.
@Suite struct UploaderTests {
    @Test(arguments: DeliveryFixtures.Transport.allCases)
    func eachEnvelopeIsPostedGzippedWithAuthAndSentAt(over transport: DeliveryFixtures.Transport) async throws {
        let outbox = try TemporaryDirectory()
        defer { outbox.remove() }
        try await RecordingIngest.run { ingest in
            // Given an uploader for the ingest's DSN
            let dsn = try DSN(ingest.dsn())
            let uploader = try DeliveryFixtures.uploader(dsn: ingest.dsn(), outbox: outbox.url, over: transport)
            let envelope = try DeliveryFixtures.envelope("checkout failed", dsn: dsn)

            // When an envelope is enqueued and flushed
            #expect(await uploader.enqueue(envelope))
            #expect(await uploader.flush(timeout: patience))

            // Then one request carried it, with the protocol's headers, gzip, and sent_at set at send time
            let request = try #require(await ingest.recorder.requests.first)
            #expect(request.path == "/api/1/envelope/")
            #expect(request.headers["content-type"] == "application/x-sentry-envelope")
            #expect(request.headers["content-encoding"] == "gzip")
            #expect(
                request.headers["x-sentry-auth"]
                    == "Sentry sentry_version=7, sentry_client=faultline.swift/0.1.0, "
                    + "sentry_key=0123456789abcdef0123456789abcdef")
            let received = try Envelope(parsing: Gzip.decompress(request.body, maximumSize: 1 << 20))
            #expect(received.header["event_id"] == envelope.header["event_id"])
            #expect(received.header["sent_at"]?.stringValue?.hasSuffix("Z") == true)
            #expect(received.items.map(\.type) == ["event"])
            #expect(received.items.first?.payload == envelope.items.first?.payload)
            #expect(await uploader.pendingCount == 0)
            #expect(try outbox.names() == ["000000000001.segment", DeliveryStatistics.fileName, "outbox-cursor.json"])
            #expect(DeliveryBacklog.inOutbox(outbox.url) == (0, 0, nil))
            await uploader.close(timeout: .seconds(1))
            #expect(try outbox.names() == [DeliveryStatistics.fileName])
        }
    }

    @Test(arguments: DeliveryFixtures.Transport.allCases)
    func eventsStoredDuringAnOutageAreAllDeliveredOnceWhenTheEndpointIsBack(over transport: DeliveryFixtures.Transport)
        async throws
    {
        let outbox = try TemporaryDirectory()
        defer { outbox.remove() }
        // Given an endpoint that is down
        let closed = try ClosedPort()
        let dsn = "http://0123456789abcdef0123456789abcdef@127.0.0.1:\(closed.port)/1"
        let uploader = try DeliveryFixtures.uploader(dsn: dsn, outbox: outbox.url, over: transport)
        var sent: [String] = []
        for index in 0..<30 {
            let envelope = try DeliveryFixtures.envelope("outage \(index)")
            sent.append(try #require(envelope.header["event_id"]?.stringValue))
            #expect(await uploader.enqueue(envelope))
        }

        // When it stays down for a while, nothing is lost
        #expect(try await eventually { await uploader.statistics.retried > 0 })
        #expect(await uploader.pendingCount == 30)

        // Then once it is back, every event arrives exactly once
        let recorder = IngestRecorder()
        closed.release()
        try await RecordingIngest.run(port: closed.port, recorder: recorder) { _ in
            #expect(await uploader.flush(timeout: patience))
        }
        #expect(try await DeliveryFixtures.acceptedEventIDs(recorder).sorted() == sent.sorted())
        #expect(await uploader.statistics.delivered == 30)
    }

    @Test(arguments: DeliveryFixtures.Transport.allCases)
    func a429WithRetryAfterStopsEverySendUntilItsDeadline(over transport: DeliveryFixtures.Transport) async throws {
        let outbox = try TemporaryDirectory()
        defer { outbox.remove() }
        try await RecordingIngest.run { ingest in
            // Given an ingest that answers the first request 429 Retry-After: 60, and an uploader whose timers run on
            // a clock the test moves
            await ingest.recorder.answerNext([.init(status: 429, headers: ["Retry-After": "60"])])
            let clock = ManualClock()
            let uploader = try DeliveryFixtures.uploader(
                dsn: ingest.dsn(), outbox: outbox.url, over: transport, clock: clock)

            // When an envelope is sent once the flush interval passed, and another is stored during the limit
            #expect(await uploader.enqueue(try DeliveryFixtures.envelope("first")))
            clock.advance(by: .milliseconds(50))
            try await wait(for: "the 429") { await uploader.statistics.retried == 1 }
            let during = try DeliveryFixtures.envelope("during the limit")
            #expect(await uploader.enqueue(during) == false)

            // Then the limit holds until its deadline, 60 s after the answer, and not a moment longer
            #expect(await uploader.rateLimit(of: during)?.wait == .seconds(60))
            clock.advance(by: .seconds(60) - .milliseconds(1))
            #expect(await uploader.rateLimit(of: during)?.wait == .milliseconds(1))
            clock.advance(by: .milliseconds(1))
            #expect(await uploader.rateLimit(of: during) == nil)

            // and the 429'd envelope is kept and sent after it, alone: what was captured during the limit was not
            // stored
            #expect(await uploader.flush(timeout: patience))
            #expect(await ingest.recorder.requests.map(\.status) == [429, 200])
            #expect(
                await uploader.statistics.discarded == [.init(reason: .ratelimitBackoff, category: .error, quantity: 1)]
            )
            await uploader.close(timeout: .zero)
        }
    }

    @Test(arguments: DeliveryFixtures.Transport.allCases)
    func aSentryRateLimitOnErrorsDropsCountsAndReportsThem(over transport: DeliveryFixtures.Transport) async throws {
        let outbox = try TemporaryDirectory()
        defer { outbox.remove() }
        try await RecordingIngest.run { ingest in
            // Given an ingest that accepts an event but limits errors for 60 seconds, and an uploader whose timers
            // run on a clock the test moves
            await ingest.recorder.answerNext([
                .init(status: 200, headers: ["X-Sentry-Rate-Limits": "60:error;transaction:key, 0.5:unknown:project"])
            ])
            let clock = ManualClock()
            let uploader = try DeliveryFixtures.uploader(
                dsn: ingest.dsn(), outbox: outbox.url, over: transport, clock: clock)
            #expect(await uploader.enqueue(try DeliveryFixtures.envelope("accepted")))
            #expect(await uploader.flush(timeout: patience))

            // When three events are captured during the limit, and one after it
            for index in 0..<3 {
                #expect(await uploader.enqueue(try DeliveryFixtures.envelope("limited \(index)")) == false)
            }
            clock.advance(by: .seconds(60))
            #expect(await uploader.enqueue(try DeliveryFixtures.envelope("after the limit")))
            #expect(await uploader.flush(timeout: patience))

            // Then those captured during the limit were never sent, and the next envelope told the server why
            let envelopes = try await DeliveryFixtures.envelopes(ingest.recorder)
            #expect(envelopes.map { $0.items.map(\.type) } == [["event"], ["event", "client_report"]])
            #expect(try DeliveryFixtures.discardedEvents(in: envelopes) == ["ratelimit_backoff/error": 3])
            #expect(
                await uploader.statistics.discarded == [.init(reason: .ratelimitBackoff, category: .error, quantity: 3)]
            )
            await uploader.close(timeout: .zero)
        }
    }

    @Test(arguments: DeliveryFixtures.Transport.allCases)
    func aFlushSendsPendingCountsInAClientReportOfTheirOwn(over transport: DeliveryFixtures.Transport) async throws {
        let outbox = try TemporaryDirectory()
        defer { outbox.remove() }
        try await RecordingIngest.run { ingest in
            // Given an ingest that refuses an envelope as too large
            await ingest.recorder.answerNext([.init(status: 413)])
            let uploader = try DeliveryFixtures.uploader(dsn: ingest.dsn(), outbox: outbox.url, over: transport)
            #expect(await uploader.enqueue(try DeliveryFixtures.envelope("too large")))
            #expect(await uploader.flush(timeout: patience) == false)  // refused: not delivered

            // When the app flushes with nothing else to send
            #expect(await uploader.flush(timeout: patience))

            // Then the 413 was not retried, and a client report alone said it was dropped
            let envelopes = try await DeliveryFixtures.envelopes(ingest.recorder)
            #expect(envelopes.map { $0.items.map(\.type) } == [["event"], ["client_report"]])
            #expect(try DeliveryFixtures.discardedEvents(in: envelopes) == ["send_error/error": 1])
        }
    }

    @Test(arguments: DeliveryFixtures.Transport.allCases)
    func serverErrorsAreRetriedOrDroppedByStatus(over transport: DeliveryFixtures.Transport) async throws {
        let outbox = try TemporaryDirectory()
        defer { outbox.remove() }
        try await RecordingIngest.run { ingest in
            // Given an ingest that answers 503, 502 and 504 (kept), then 500 and 400 (dropped)
            await ingest.recorder.answerNext([503, 502, 504, 500, 400].map { .init(status: $0) })
            var configuration = try DeliveryFixtures.configuration(dsn: ingest.dsn(), outbox: outbox.url)
            configuration.maxConcurrentRequests = 1
            let uploader = try Uploader(configuration: configuration, transport: transport.make())

            // When two events are sent one at a time, each flush saying whether it was delivered
            #expect(await uploader.enqueue(try DeliveryFixtures.envelope("first")))
            let first = await uploader.flush(timeout: patience)
            #expect(await uploader.enqueue(try DeliveryFixtures.envelope("second")))
            let second = await uploader.flush(timeout: patience)

            // Then the first survived three retryable answers and was dropped at 500; the second dropped at 400; both
            // flushes say they did not deliver everything
            #expect(await ingest.recorder.requests.map(\.status) == [503, 502, 504, 500, 400])
            #expect(first == false && second == false)
            let statistics = await uploader.statistics
            #expect(statistics.retried == 3)
            #expect(statistics.delivered == 0)
            #expect(statistics.discarded == [.init(reason: .sendError, category: .error, quantity: 2)])
            // and a flush that delivers the client report of the two, with nothing refused, says it delivered all
            #expect(await uploader.flush(timeout: patience))
        }
    }

    @Test(arguments: DeliveryFixtures.Transport.allCases)
    func aRestartSendsEverythingTheLastRunLeftInTheOutbox(over transport: DeliveryFixtures.Transport) async throws {
        let outbox = try TemporaryDirectory()
        defer { outbox.remove() }
        // Given a run that stored 50 envelopes while the endpoint was down, then closed
        let closed = try ClosedPort()
        let dsn = "http://0123456789abcdef0123456789abcdef@127.0.0.1:\(closed.port)/1"
        var sent: [String] = []
        let firstRun = try DeliveryFixtures.uploader(dsn: dsn, outbox: outbox.url, over: transport)
        for index in 0..<50 {
            let envelope = try DeliveryFixtures.envelope("stored \(index)")
            sent.append(try #require(envelope.header["event_id"]?.stringValue))
            await firstRun.enqueue(envelope)
        }
        #expect(await firstRun.close(timeout: .milliseconds(200)) == false)
        // (all 50 wait in the outbox, as the next run will find them: it starts sending as soon as it opens)
        #expect(DeliveryBacklog.inOutbox(outbox.url).envelopes == 50)

        // When the next run starts with the endpoint up
        let recorder = IngestRecorder()
        closed.release()
        try await RecordingIngest.run(port: closed.port, recorder: recorder) { _ in
            let secondRun = try DeliveryFixtures.uploader(dsn: dsn, outbox: outbox.url, over: transport)
            // (waited for while deliveries progress: a loaded run has taken over a minute for the 50)
            try await wait(for: "the 50 deliveries", progressing: { await secondRun.statistics.delivered }) {
                await secondRun.statistics.delivered == 50
            }
            #expect(await secondRun.flush(timeout: patience))
        }

        // Then all 50 arrived, none twice, and no envelope is left: the segment they were in is deleted
        #expect(try await DeliveryFixtures.acceptedEventIDs(recorder).sorted() == sent.sorted())
        #expect(try outbox.names() == [DeliveryStatistics.fileName, "outbox-cursor.json"])
    }

    @Test(arguments: DeliveryFixtures.Transport.allCases)
    func closingCancelsARequestTheEndpointHoldsAndKeepsItsEnvelope(over transport: DeliveryFixtures.Transport)
        async throws
    {
        let outbox = try TemporaryDirectory()
        defer { outbox.remove() }
        try await RecordingIngest.run { ingest in
            // Given an endpoint that holds the request for five minutes
            let hold = Duration.seconds(300)
            await ingest.recorder.answerNext([.init(status: 200, delay: hold)])
            let uploader = try DeliveryFixtures.uploader(dsn: ingest.dsn(), outbox: outbox.url, over: transport)
            #expect(await uploader.enqueue(try DeliveryFixtures.envelope("held")))
            #expect(try await eventually { await ingest.recorder.requestCount == 1 })

            // When the app closes the uploader
            let started = ContinuousClock.now
            #expect(await uploader.close(timeout: .milliseconds(100)) == false)

            // Then it returns before the endpoint answered (a loaded machine takes seconds to cancel the request),
            // counts no failed attempt, and keeps the envelope
            #expect(ContinuousClock.now - started < hold)
            #expect(await uploader.statistics.delivered == 0)
            #expect(await uploader.statistics.retried == 0)
            #expect(DeliveryBacklog.inOutbox(outbox.url).envelopes == 1)
            #expect(await uploader.close(timeout: .seconds(1)) == false)  // closing again is harmless
        }
    }

    @Test func aSecondCloseWaitsForTheFirstInsteadOfFlushingAgain() async throws {
        let outbox = try TemporaryDirectory()
        defer { outbox.remove() }
        try await RecordingIngest.run { ingest in
            // Given an endpoint that holds the request for five minutes
            let hold = Duration.seconds(300)
            await ingest.recorder.answerNext([.init(status: 200, delay: hold)])
            let uploader = try DeliveryFixtures.uploader(dsn: ingest.dsn(), outbox: outbox.url, over: .urlSession)
            #expect(await uploader.enqueue(try DeliveryFixtures.envelope("held")))
            #expect(try await eventually { await ingest.recorder.requestCount == 1 })

            // When the app closes it with a short timeout, and another part of the app with one as long as the hold
            // meanwhile
            let started = ContinuousClock.now
            async let first = uploader.close(timeout: .milliseconds(200))
            try await Task.sleep(for: .milliseconds(50))
            let second = await uploader.close(timeout: hold)

            // Then the second returns with the first, long before the endpoint answers (a loaded machine takes seconds
            // to cancel the request), without sending again, and neither says the held envelope was delivered
            #expect(await first == false)
            #expect(second == false)
            #expect(ContinuousClock.now - started < hold / 5)
            #expect(await ingest.recorder.requestCount == 1)
            #expect(DeliveryBacklog.inOutbox(outbox.url).envelopes == 1)
        }
    }

    @Test(arguments: DeliveryFixtures.Transport.allCases)
    func aRequestTheEndpointHoldsDoesNotHoldBackTheEnvelopesAfterIt(over transport: DeliveryFixtures.Transport)
        async throws
    {
        let outbox = try TemporaryDirectory()
        defer { outbox.remove() }
        try await RecordingIngest.run { ingest in
            // Given an endpoint that holds the first request longer than the test waits
            await ingest.recorder.answerNext([.init(status: 200, delay: patience * 2)])
            let uploader = try DeliveryFixtures.uploader(dsn: ingest.dsn(), outbox: outbox.url, over: transport)

            // When 30 envelopes are stored, more than a batch of 20
            for index in 0..<30 { #expect(await uploader.enqueue(try DeliveryFixtures.envelope("event \(index)"))) }

            // Then the other 29 are delivered while the first is held, and only the held one stays in the outbox
            try await wait(for: "the 29 deliveries", progressing: { await uploader.statistics.delivered }) {
                await uploader.statistics.delivered == 29
            }
            #expect(await ingest.recorder.requestCount == 30)
            #expect(await uploader.pendingCount == 1)
            #expect(await uploader.close(timeout: .milliseconds(100)) == false)
            #expect(DeliveryBacklog.inOutbox(outbox.url).envelopes == 1)
        }
    }

    @Test(arguments: DeliveryFixtures.Transport.allCases)
    func aFullOutboxEvictsItsOldestEnvelopesAndCountsThem(over transport: DeliveryFixtures.Transport) async throws {
        let outbox = try TemporaryDirectory()
        defer { outbox.remove() }
        // Given an outbox of 5 envelopes and an endpoint that is down
        let closed = try ClosedPort()
        var configuration = try DeliveryFixtures.configuration(
            dsn: "http://0123456789abcdef0123456789abcdef@127.0.0.1:\(closed.port)/1", outbox: outbox.url)
        configuration.maxOutboxCount = 5
        configuration.flushInterval = .seconds(60)
        let uploader = try Uploader(configuration: configuration, transport: transport.make())
        var sent: [String] = []

        // When 8 are enqueued
        for index in 0..<8 {
            let envelope = try DeliveryFixtures.envelope("event \(index)")
            sent.append(try #require(envelope.header["event_id"]?.stringValue))
            #expect(await uploader.enqueue(envelope))
        }

        // Then the newest 5 are kept and the 3 oldest counted as cache overflow, here and in the stored statistics
        #expect(await uploader.pendingCount == 5)
        #expect(await uploader.statistics.discarded == [.init(reason: .cacheOverflow, category: .error, quantity: 3)])
        let recorder = IngestRecorder()
        closed.release()
        try await RecordingIngest.run(port: closed.port, recorder: recorder) { _ in
            #expect(await uploader.close(timeout: patience))
        }
        #expect(try await DeliveryFixtures.acceptedEventIDs(recorder).sorted() == sent.suffix(5).sorted())
        let stored = DeliveryStatistics.stored(in: outbox.url)
        #expect(stored.discarded == [.init(reason: .cacheOverflow, category: .error, quantity: 3)])
        #expect(stored.delivered == 5)
    }
}
