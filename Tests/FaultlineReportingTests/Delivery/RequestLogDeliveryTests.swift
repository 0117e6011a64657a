import FaultlineLogReading
import FaultlineRecords
import FaultlineReporting
import FaultlineTestServer
import Foundation
import LoopbackPorts
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A reporter's transactions and request outcomes are delivered as its events are: each written once, to its own log,
/// and sent from there from a cursor of its own, so what an outage or a restart leaves is sent by the next run, and
/// nothing of them is stored a second time in the outbox.
@Suite struct RequestLogDeliveryTests {
    @Test func transactionsAndRequestOutcomesLeftByARunThatCouldNotSendAreSentOnceByTheNextRunFromTheirLogs()
        async throws
    {
        let logs = try TemporaryDirectory()
        defer { logs.remove() }
        // Given a run whose endpoint is down, that records every trace: 3 spans and 5 requests
        let closed = try ClosedPort()
        let api = URL(string: "http://127.0.0.1:1/api")!
        var firstRun = Self.options(logs: logs.url, dsn: try DSN(Self.dsn(port: closed.port)))
        firstRun.release = "shop-ios@1.0.0"
        do {
            let reporter = try Reporter(options: firstRun)
            for index in 0..<3 {
                await reporter.withSpan("load screen \(index)", operation: "ui.load") {
                    let recording = RequestRecording(
                        reporter: reporter, request: URLRequest(url: api.appendingPathComponent("users/\(index)")),
                        route: "/users/{id}", baseURL: api)
                    _ = await recording.finish(
                        response: HTTPURLResponse(
                            url: recording.request.url!, statusCode: 200, httpVersion: nil, headerFields: nil),
                        body: Data("{}".utf8))
                }
            }
            // (written before it closes: closing gives up on the endpoint at once, not on the writes)
            #expect(try await eventually { await reporter.statistics.transactions == 3 })
            #expect(await reporter.close(timeout: .zero) == false)
        }
        // and only their logs hold them: the outbox has no envelope, and `stats` finds them from the cursors
        let layout = LogLayout(logs.url)
        let outbox = try FileManager.default.contentsOfDirectory(atPath: layout.outbox.path)
        #expect(outbox.allSatisfy { !$0.hasSuffix(".segment") && !$0.hasSuffix(".envelope") }, "\(outbox)")
        #expect(DeliveryBacklog.inLog(.transactions, of: layout).records == 3)
        #expect(DeliveryBacklog.inLog(.outcomes, of: layout).records == 1)
        let logged = try Self.lines(of: layout.requests.appendingPathComponent("transactions.jsonl"))
        #expect(logged.count == 3)
        closed.release()

        // When the next run starts with the endpoint back
        try await RecordingIngest.run(port: closed.port) { ingest in
            let reporter = try Reporter(options: Self.options(logs: logs.url, dsn: try DSN(ingest.dsn())))
            #expect(await reporter.close(timeout: patience))

            // Then each transaction arrives once, as it was logged, with a trace header rebuilt from its line
            let envelopes = try await DeliveryFixtures.envelopes(ingest.recorder)
            let transactions = envelopes.filter { $0.items.map(\.type) == ["transaction"] }
            #expect(
                transactions.map { $0.items[0].payload }.sorted { $0.lexicographicallyPrecedes($1) }
                    == logged.sorted { $0.lexicographicallyPrecedes($1) })
            for envelope in transactions {
                let event = try JSONDecoder().decode([String: JSONValue].self, from: envelope.items[0].payload)
                let traceContext = event["contexts"]?.objectValue?["trace"]?.objectValue
                #expect(envelope.header["event_id"] == event["event_id"])
                #expect(
                    envelope.header["trace"]
                        == .object([
                            "trace_id": traceContext?["trace_id"] ?? .null,
                            "public_key": "0123456789abcdef0123456789abcdef", "release": "shop-ios@1.0.0",
                            "environment": "production",
                            "transaction": event["transaction"] ?? .null, "sample_rate": "1", "sampled": "true",
                        ]))
            }
            // and the interval of request outcomes arrives once, with the 3 requests
            let outcomes = envelopes.filter { $0.items.map(\.type) == [RequestOutcomes.type] }
            #expect(outcomes.count == 1)
            let interval = try RequestOutcomes(line: try #require(outcomes.first?.items[0].payload))
            #expect(interval.routes.values.reduce(0) { $0 + $1.requests } == 3)
        }
    }

    @Test func aTransactionSentInTheRunThatRecordedItCarriesTheTraceHeaderItWasRecordedWith() async throws {
        let logs = try TemporaryDirectory()
        defer { logs.remove() }
        try await RecordingIngest.run { ingest in
            // Given a reporter that continues a trace another service started, whose baggage names that service's
            // release
            let reporter = try Reporter(options: Self.options(logs: logs.url, dsn: try DSN(ingest.dsn())))
            let traceID = "771a43a4192642f0b136d5159a501700"
            let incoming = try #require(
                SpanContext(
                    sentryTrace: "\(traceID)-b0e6f15b45c36b12-1",
                    baggage: "sentry-trace_id=\(traceID),sentry-release=web@2.0,sentry-sample_rand=0.123456"
                        + ",sentry-sample_rate=1,sentry-sampled=true"))

            // When it records a span in that trace and sends it
            await SpanContext.$current.withValue(incoming) {
                await reporter.withSpan("checkout") {}
            }
            #expect(await reporter.close(timeout: patience))

            // Then the transaction's trace header is the trace's, as the head passed it on
            let envelopes = try await DeliveryFixtures.envelopes(ingest.recorder)
            let envelope = try #require(envelopes.first { $0.items.map(\.type) == ["transaction"] })
            #expect(envelope.header["trace"]?.objectValue?["release"] == "web@2.0")
            #expect(envelope.header["trace"]?.objectValue?["sample_rand"] == "0.123456")
        }
    }

    private static func dsn(port: Int) -> String {
        "http://0123456789abcdef0123456789abcdef@127.0.0.1:\(port)/1"
    }

    /// A reporter's options that record every trace and send to `dsn` with the delivery tests' short intervals.
    private static func options(logs: URL, dsn: DSN) -> Reporter.Options {
        var options = Reporter.Options(logDirectory: logs)
        options.dsn = dsn
        options.tracesSampleRate = 1
        options.configureDelivery = { DeliveryFixtures.tune(&$0) }
        return options
    }

    /// The lines of `file`.
    private static func lines(of file: URL) throws -> [Data] {
        try Data(contentsOf: file).split(separator: UInt8(ascii: "\n")).map { Data($0) }
    }
}
