import Faultline
import FaultlineReporting
import FaultlineTestServer
import Foundation
import SeedScenarios
import TestSupport
import Testing

/// Requests carry their trace to the server (`sentry-trace`, `baggage`, `traceparent`), events name the span they
/// happened in, and sampled traces become `http.client` transactions in the transactions' log: the ids the seed server
/// received are those of the events and spans.
@Suite struct TracingTests {
    @Test func aFailedRequestsEventCarriesTheTraceTheServerReceived() async throws {
        let log = try LogDirectory()
        defer { log.remove() }
        try await SeedServer.run { server in
            // Given a reporter that records no traces (Sentry's default)
            let setup = try await CaptureMiddlewareTests.setup(server, log: log)

            // When user 20, whose profile image is missing, is loaded
            _ = try? await setup.client.send(CaptureMiddlewareTests.user(20))
            let events = try await log.events(writtenBy: setup.reporter)

            // Then the server received the request's trace, its sampling left to it
            let received = try #require(await server.state.receivedTraces.first { $0.path == "/boleto/users/20" })
            #expect(received.sentryTrace.split(separator: "-").count == 2)
            #expect(received.traceparent == "00-\(received.traceID)-\(received.spanID)-00")
            #expect(
                received.baggage
                    == "sentry-trace_id=\(received.traceID),sentry-release=boleto@2.4.1,sentry-environment=production")
            // and the decoding failure's event names that trace and span
            let event = try #require(events.first { $0.tags["error.kind"] == "decoding" })
            let trace = try #require(event.contexts["trace"]?.objectValue)
            #expect(trace["trace_id"]?.stringValue == received.traceID)
            #expect(trace["span_id"]?.stringValue == received.spanID)
            // and nothing was recorded as a transaction
            await setup.reporter.close(timeout: patience)
            #expect(try log.transactions().isEmpty)
        }
    }

    @Test func sampledRequestsBecomeHTTPClientTransactions() async throws {
        let log = try LogDirectory()
        defer { log.remove() }
        try await SeedServer.run { server in
            // Given a reporter that records every trace
            let setup = try await CaptureMiddlewareTests.setup(server, log: log) { $0.tracesSampleRate = 1 }

            // When users 1 and 20 are loaded (20 fails to decode) and a travel is refused with a business code
            _ = try? await setup.client.send(CaptureMiddlewareTests.user(1))
            _ = try? await setup.client.send(CaptureMiddlewareTests.user(20))
            _ = try? await setup.client.send(APIRequest<EmptyResponse>(.post, "/boleto/travels"))
            let events = try await log.events(writtenBy: setup.reporter)
            await setup.reporter.close(timeout: patience)

            // Then each request is a transaction of its own, in the trace the server received, sampled
            let received = await server.state.receivedTraces
            let transactions = try log.transactions()
            #expect(transactions.count == 3)
            #expect(received.count == 3)
            for (transaction, trace) in zip(transactions, received) {
                let context = try #require(transaction["contexts"]?.objectValue?["trace"]?.objectValue)
                #expect(transaction["type"]?.stringValue == "transaction")
                #expect(context["trace_id"]?.stringValue == trace.traceID)
                #expect(context["span_id"]?.stringValue == trace.spanID)
                #expect(context["op"]?.stringValue == "http.client")
                #expect(context["origin"]?.stringValue == "auto.http.faultline")
                #expect(trace.sentryTrace.hasSuffix("-1") && trace.traceparent?.hasSuffix("-01") == true)
                let baggage = Set((trace.baggage ?? "").split(separator: ","))
                #expect(
                    baggage.isSuperset(of: [
                        "sentry-sampled=true", "sentry-sample_rate=1", "sentry-release=boleto@2.4.1",
                        "sentry-environment=production", "sentry-transaction=\(Self.percentEncoded(transaction))",
                    ]))
                #expect(transaction["release"]?.stringValue == "boleto@2.4.1")
                #expect(transaction["transaction_info"]?.objectValue?["source"]?.stringValue == "route")
            }
            // named by route, with the outcome, status and scrubbed URL of each
            #expect(
                transactions.map { $0["transaction"]?.stringValue } == [
                    "GET /boleto/users/{id}", "GET /boleto/users/{id}", "POST /boleto/travels",
                ])
            let data = transactions.compactMap {
                $0["contexts"]?.objectValue?["trace"]?.objectValue?["data"]?.objectValue
            }
            #expect(data.map { $0["faultline.outcome"]?.stringValue } == ["ok", "decoding.2xx", "server.4xx"])
            #expect(data.map { $0["http.response.status_code"] } == [.int(200), .int(200), .int(400)])
            #expect(data[0]["url"]?.stringValue == server.baseURL.absoluteString + "/boleto/users/1")
            let statuses = transactions.map {
                $0["contexts"]?.objectValue?["trace"]?.objectValue?["status"]?.stringValue
            }
            #expect(statuses == ["ok", "internal_error", "invalid_argument"])
            // and each lasted as long as the request: it ends after it starts
            for transaction in transactions {
                let start = try #require(transaction["start_timestamp"].flatMap(Self.number))
                let end = try #require(transaction["timestamp"].flatMap(Self.number))
                #expect(start <= end && end - start < 60)
            }
            // and the failures' events are linked to their transactions' spans
            let spanIDs = Set(received.map(\.spanID))
            #expect(events.count == 2)
            for event in events {
                #expect(spanIDs.contains(event.contexts["trace"]?.objectValue?["span_id"]?.stringValue ?? ""))
            }
            #expect(await setup.reporter.statistics.transactions == 3)
        }
    }

    @Test func anAppsSpanHoldsTheRequestsItMakes() async throws {
        let log = try LogDirectory()
        defer { log.remove() }
        try await SeedServer.run { server in
            // Given a reporter that records every trace
            let setup = try await CaptureMiddlewareTests.setup(server, log: log) { $0.tracesSampleRate = 1 }

            // When a screen loads two users in a span of its own, and captures a message in it
            let client = setup.client
            let reporter = setup.reporter
            let messageID = await reporter.withSpan("load profile screen", operation: "ui.load") {
                _ = try? await client.send(CaptureMiddlewareTests.user(1))
                _ = try? await client.send(CaptureMiddlewareTests.user(2))
                return await reporter.capture(message: "profile shown")
            }
            let events = try await log.events(writtenBy: reporter)
            await reporter.close(timeout: patience)

            // Then it is one transaction, with the two requests as its children, in the trace the server received
            let transactions = try log.transactions()
            let transaction = try #require(transactions.first)
            #expect(transactions.count == 1)
            #expect(transaction["transaction"]?.stringValue == "load profile screen")
            #expect(transaction["transaction_info"]?.objectValue?["source"]?.stringValue == "custom")
            let root = try #require(transaction["contexts"]?.objectValue?["trace"]?.objectValue)
            #expect(root["op"]?.stringValue == "ui.load" && root["status"]?.stringValue == "ok")
            guard case .array(let spans)? = transaction["spans"] else {
                Issue.record("no spans")
                return
            }
            let children = spans.compactMap(\.objectValue)
            #expect(children.count == 2)
            let received = await server.state.receivedTraces
            #expect(received.map(\.traceID) == Array(repeating: root["trace_id"]?.stringValue ?? "", count: 2))
            #expect(children.map { $0["span_id"]?.stringValue } == received.map(\.spanID))
            for child in children {
                #expect(child["parent_span_id"] == root["span_id"])
                #expect(child["trace_id"] == root["trace_id"])
                #expect(child["op"]?.stringValue == "http.client")
                #expect(child["description"]?.stringValue == "GET /boleto/users/{id}")
            }
            // and the message names the screen's span
            let message = try #require(events.first { $0.eventID == messageID })
            #expect(message.contexts["trace"]?.objectValue?["span_id"] == root["span_id"])
        }
    }

    @Test func aTraceNotSampledIsPropagatedAndCountedAsDropped() async throws {
        let logs = try TemporaryDirectory()
        defer { logs.remove() }
        try await SeedServer.run { server in
            try await RecordingIngest.run { ingest in
                // Given a reporter that records no trace (a rate of 0), with a DSN
                let log = try LogDirectory()
                defer { log.remove() }
                let setup = try await CaptureMiddlewareTests.setup(server, log: log) {
                    $0.tracesSampleRate = 0
                    $0.dsn = try? DSN(ingest.dsn())
                }

                // When it loads 3 users
                for id in 1...3 { _ = try? await setup.client.send(CaptureMiddlewareTests.user(id)) }
                #expect(await setup.reporter.flush(timeout: patience))
                #expect(await setup.reporter.close(timeout: patience))

                // Then the server received their traces marked not sampled
                let received = await server.state.receivedTraces
                #expect(received.count == 3)
                #expect(received.allSatisfy { $0.sentryTrace.hasSuffix("-0") })
                #expect(received.allSatisfy { ($0.baggage ?? "").contains("sentry-sampled=false") })
                // and no transaction was written or sent, but each was counted in a client report, with its span
                #expect(try log.transactions().isEmpty)
                let envelopes = try await DeliveryFixtures.envelopes(ingest.recorder)
                #expect(!envelopes.flatMap(\.items).contains { $0.type == "transaction" })
                #expect(
                    try DeliveryFixtures.discardedEvents(in: envelopes) == [
                        "sample_rate/transaction": 3, "sample_rate/span": 3,
                    ])
            }
        }
    }

    @Test func sampledTransactionsAreSentWithTheirTraceHeader() async throws {
        try await SeedServer.run { server in
            try await RecordingIngest.run { ingest in
                // Given a reporter that records every trace, with a DSN
                let log = try LogDirectory()
                defer { log.remove() }
                let setup = try await CaptureMiddlewareTests.setup(server, log: log) {
                    $0.tracesSampleRate = 1
                    $0.dsn = try? DSN(ingest.dsn())
                }

                // When it loads a user
                _ = try await setup.client.send(CaptureMiddlewareTests.user(1))
                #expect(await setup.reporter.close(timeout: patience))

                // Then the ingest received the transaction in an envelope of its own, whose `trace` header is the
                // trace's dynamic sampling context, as the request's baggage carried it
                let envelopes = try await DeliveryFixtures.envelopes(ingest.recorder)
                let envelope = try #require(envelopes.first { $0.items.contains { $0.type == "transaction" } })
                #expect(envelope.items.map(\.type) == ["transaction"])
                let trace = try #require(envelope.header["trace"]?.objectValue)
                let received = try #require(await server.state.receivedTraces.first)
                #expect(trace["trace_id"]?.stringValue == received.traceID)
                #expect(trace["public_key"]?.stringValue == "0123456789abcdef0123456789abcdef")
                #expect(trace["sampled"]?.stringValue == "true")
                #expect(trace["transaction"]?.stringValue == "GET /boleto/users/{id}")
                let transaction = try JSONDecoder().decode(
                    [String: JSONValue].self, from: envelope.items[0].payload)
                #expect(transaction["event_id"] == envelope.header["event_id"])
            }
        }
    }

    @Test func requestsCarryTraceHeadersOnlyToPropagationTargets() async throws {
        let log = try LogDirectory()
        defer { log.remove() }
        try await SeedServer.run { server in
            // Given a reporter that propagates traces to no host, and one that omits traceparent
            let none = try await CaptureMiddlewareTests.setup(server, log: log) { $0.tracePropagationTargets = [] }
            _ = try? await none.client.send(CaptureMiddlewareTests.user(1))
            // Then the server received no trace headers from the first
            #expect(await server.state.receivedTraces.isEmpty)

            let other = try LogDirectory()
            defer { other.remove() }
            let noTraceparent = try await CaptureMiddlewareTests.setup(server, log: other) {
                $0.propagatesTraceparent = false
                $0.tracePropagationTargets = ["127.0.0.1"]
            }
            _ = try? await noTraceparent.client.send(CaptureMiddlewareTests.user(2))
            // and sentry-trace and baggage, without traceparent, from the second
            let received = await server.state.receivedTraces
            #expect(received.count == 1 && received.first?.traceparent == nil && received.first?.baggage != nil)
            await none.reporter.close(timeout: patience)
            await noTraceparent.reporter.close(timeout: patience)
        }
    }

    @Test func aServerContinuesItsCallersTraceWithItsSamplingDecision() async throws {
        let log = try LogDirectory()
        defer { log.remove() }
        try await SeedServer.run { server in
            // Given a reporter that records no trace of its own (a rate of 0), in a server handling a request whose
            // caller sampled its trace
            let setup = try await CaptureMiddlewareTests.setup(server, log: log) { $0.tracesSampleRate = 0 }
            let caller = try #require(
                SpanContext(
                    sentryTrace: "771a43a4192642f0b136d5159a501700-b7ad6b7169203331-1",
                    baggage: "other=1,sentry-trace_id=771a43a4192642f0b136d5159a501700,sentry-sample_rand=0.250000"))

            // When it loads a user while handling it
            let client = setup.client
            try await SpanContext.$current.withValue(caller) {
                _ = try await client.send(CaptureMiddlewareTests.user(1))
            }
            await setup.reporter.close(timeout: patience)

            // Then the request carried the caller's trace, sampled, and the caller's sampling context
            let received = try #require(await server.state.receivedTraces.first)
            #expect(received.traceID == "771a43a4192642f0b136d5159a501700")
            #expect(received.sentryTrace.hasSuffix("-1"))
            #expect(received.baggage?.contains("sentry-sample_rand=0.250000") == true)
            // and the request is a transaction of that trace, a child of the caller's span
            let transaction = try #require(try log.transactions().first)
            let context = try #require(transaction["contexts"]?.objectValue?["trace"]?.objectValue)
            #expect(context["trace_id"]?.stringValue == "771a43a4192642f0b136d5159a501700")
            #expect(context["parent_span_id"]?.stringValue == "b7ad6b7169203331")
        }
    }

    @Test(arguments: [
        "", "nothex", "771a43a4192642f0b136d5159a501700", "771a43a4192642f0b136d5159a501700-b7ad-1",
        "771a43a4192642f0b136d5159a501700-b7ad6b7169203331-2", "771A43A4192642F0B136D5159A501700-b7ad6b7169203331",
    ])
    func aHeaderThatIsNotSentryTraceContinuesNothing(_ header: String) {
        #expect(SpanContext(sentryTrace: header) == nil)
    }

    @Test func eventsOutsideAnySpanShareTheReportersTrace() async throws {
        let log = try LogDirectory()
        defer { log.remove() }
        let reporter = try Reporter(options: Reporter.Options(logDirectory: log.url))
        await reporter.capture(message: "first")
        await reporter.capture(message: "second")
        let traces = try await log.events(writtenBy: reporter).map { $0.contexts["trace"]?.objectValue?["trace_id"] }
        #expect(traces.count == 2 && traces[0] == traces[1] && traces[0]?.stringValue?.count == 32)
        await reporter.close(timeout: patience)
    }

    /// A transaction's name as baggage carries it: its spaces percent-encoded.
    private static func percentEncoded(_ transaction: [String: JSONValue]) -> String {
        (transaction["transaction"]?.stringValue ?? "").replacingOccurrences(of: " ", with: "%20")
    }

    private static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .double(let number): number
        case .int(let number): Double(number)
        default: nil
        }
    }
}
