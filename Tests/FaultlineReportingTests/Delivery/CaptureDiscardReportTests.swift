import FaultlineReporting
import FaultlineTestServer
import Foundation
import LoopbackPorts
import TestSupport
import Testing

/// Events dropped at capture (sampled out, over their fingerprint's limit) reach the server in client reports, as
/// Sentry's SDKs report them.
@Suite struct CaptureDiscardReportTests {
    @Test(arguments: DeliveryFixtures.Transport.allCases)
    func sampledAndSuppressedEventsAreCountedInClientReports(over transport: DeliveryFixtures.Transport)
        async throws
    {
        let logs = try TemporaryDirectory()
        defer { logs.remove() }
        try await RecordingIngest.run { ingest in
            // Given a reporter that keeps 2 events of a fingerprint a minute
            var limited = Reporter.Options(logDirectory: logs.url.appendingPathComponent("limited"))
            limited.fingerprintLimit = .init(events: 2, per: .seconds(60))
            let limitedReporter = try Self.reporter(limited, ingest: ingest, over: transport)
            // and one that samples nothing
            var unsampled = Reporter.Options(logDirectory: logs.url.appendingPathComponent("unsampled"))
            unsampled.sampleRate = 0
            let unsampledReporter = try Self.reporter(unsampled, ingest: ingest, over: transport)

            // When each captures a storm of one failure, flushes and closes (counts that reach the uploader while
            // the events are in flight wait for the next flush: the one in closing)
            for _ in 0..<5 { await limitedReporter.capture(message: "database down") }
            for _ in 0..<4 { await unsampledReporter.capture(message: "database down") }
            for reporter in [limitedReporter, unsampledReporter] {
                #expect(await reporter.flush(timeout: patience))
                #expect(await reporter.close(timeout: patience))
            }

            // Then the ingest received the 2 kept events, and client reports of the 3 suppressed and 4 not sampled
            let envelopes = try await DeliveryFixtures.envelopes(ingest.recorder)
            #expect(envelopes.flatMap(\.items).filter { $0.type == "event" }.count == 2)
            #expect(
                try DeliveryFixtures.discardedEvents(in: envelopes) == [
                    "event_processor/error": 3, "sample_rate/error": 4,
                ])
            #expect(
                await limitedReporter.uploader?.statistics.discarded == [
                    .init(reason: .eventProcessor, category: .error, quantity: 3)
                ])
            #expect(await limitedReporter.statistics.suppressedByFingerprintLimit == 3)
            #expect(await unsampledReporter.statistics.droppedBySampleRate == 4)
        }
    }

    @Test func dropsAtCaptureAndAtWritingReachTheUploaderWithoutAFlush() async throws {
        let logs = try TemporaryDirectory()
        defer { logs.remove() }
        // Given a reporter whose endpoint is down, that keeps 1 event a minute of a fingerprint and drops "secret"
        let closed = try ClosedPort()
        defer { closed.release() }
        var options = Reporter.Options(logDirectory: logs.url)
        options.dsn = try DSN("http://0123456789abcdef0123456789abcdef@127.0.0.1:\(closed.port)/1")
        options.fingerprintLimit = .init(events: 1, per: .seconds(60))
        options.beforeSend = { $0.message == "secret" ? nil : $0 }
        let reporter = try Reporter(options: options)

        // When it captures a storm of one failure and a message beforeSend drops, and nothing flushes
        for _ in 0..<4 { await reporter.capture(message: "database down") }
        await reporter.capture(message: "secret")

        // Then the reporter's statistics and the uploader's counts agree, each drop counted once
        let expected: [DiscardedEvents] = [
            .init(reason: .beforeSend, category: .error, quantity: 1),
            .init(reason: .eventProcessor, category: .error, quantity: 3),
        ]
        #expect(
            try await eventually { await reporter.uploader?.statistics.discarded == expected })
        let statistics = await reporter.statistics
        #expect(statistics.suppressedByFingerprintLimit == 3)
        #expect(statistics.droppedByBeforeSend == 1)
        #expect(statistics.captured == ["message": 1])
        _ = await reporter.close(timeout: .zero)
    }

    /// A reporter sending to `ingest` with the delivery tests' uploader.
    private static func reporter(
        _ options: Reporter.Options, ingest: RunningRecordingIngest, over transport: DeliveryFixtures.Transport
    ) throws -> Reporter {
        var options = options
        options.dsn = try DSN(ingest.dsn())
        options.transport = transport.make()
        options.configureDelivery = { DeliveryFixtures.tune(&$0) }
        return try Reporter(options: options)
    }
}
