import Faultline
import FaultlineRecords
import FaultlineReporting
import FaultlineTestServer
import Foundation
import SeedScenarios
import TestSupport
import Testing

/// `faultline serve` keeps the transactions SDKs send in its transactions' log, scrubbed, each once: the official
/// Python SDK's and Faultline's own, whose trace the events of the same trace name.
@Suite struct ServeTransactionsTests {
    /// The transactions in the active file of the transactions' log of `logs`, as JSON objects.
    static func transactions(in logs: URL) throws -> [[String: JSONValue]] {
        let file = LogLayout(logs).requests.appendingPathComponent("transactions.jsonl")
        guard FileManager.default.fileExists(atPath: file.path) else { return [] }
        return try Data(contentsOf: file).split(separator: 0x0A).map {
            try JSONDecoder().decode([String: JSONValue].self, from: Data($0))
        }
    }

    static func trace(of object: [String: JSONValue]) -> [String: JSONValue]? {
        object["contexts"]?.objectValue?["trace"]?.objectValue
    }

    @Test func theOfficialPythonSDKsTransactionsAreStoredScrubbedAndLinkedToItsErrors() async throws {
        let logs = try ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        try await ServeFixture.run(logs: logs) { serve in
            // When sentry-sdk (traces_sample_rate=1.0) runs two checkouts, the second raising an error inside it
            _ = try await PythonPeer.start("sentry_sdk_transactions.py", [serve.dsn]).exit()
                .succeeded("sentry_sdk_transactions.py")
        }

        // Then both transactions are stored, with their spans
        let transactions = try Self.transactions(in: logs)
        #expect(transactions.count == 2)
        #expect(transactions.allSatisfy { $0["transaction"]?.stringValue == "GET /checkout" })
        #expect(transactions.allSatisfy { Self.trace(of: $0)?["op"]?.stringValue == "http.server" })
        for transaction in transactions {
            guard case .array(let spans)? = transaction["spans"] else {
                Issue.record("a transaction without spans")
                continue
            }
            #expect(spans.compactMap { $0.objectValue?["op"]?.stringValue } == ["http.client", "db"])
        }
        // and the api_key in a span's URL was scrubbed before it was stored
        let text = try String(
            contentsOf: LogLayout(logs).requests.appendingPathComponent("transactions.jsonl"), encoding: .utf8)
        #expect(!text.contains("sk_live_0123456789abcdef"))
        // and the error is the one line of the events' log, naming the second transaction's trace
        let events = try Data(contentsOf: logs.appendingPathComponent("events.jsonl")).split(separator: 0x0A)
        #expect(events.count == 1)
        let event = try JSONDecoder().decode([String: JSONValue].self, from: Data(try #require(events.first)))
        #expect(Self.trace(of: event)?["trace_id"] == Self.trace(of: transactions[1])?["trace_id"])
    }

    @Test func routesAreEstimatedFromThePythonSDKsSampledSpansWeightedByTheirSampleRate() async throws {
        let logs = try ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        // (serve as a process of its own: in the test runner, a loaded suite's tasks could keep it from answering
        // within the SDK's patience, and the SDK drops what it could not send)
        let (process, port) = try await ServeFixture.launch(logs: logs)
        defer { process.kill() }
        // When sentry-sdk (traces_sample_rate=0.5) times 60 requests to /users/{i}, every 4th answered 503
        let dsn = ServeFixture(logs: logs, port: port).dsn
        let run = try await PythonPeer.start("sentry_sdk_requests.py", [dsn, "0.5", "60"]).exit()
            .succeeded("sentry_sdk_requests.py")
        let sampled = try #require(Int(run.text.trimmingCharacters(in: .whitespacesAndNewlines)))
        process.terminate()
        #expect(try await process.exit().status == 0)

        // Then serve stored each sampled transaction, with its trace's sample rate from the envelope's header
        let stored = try Self.transactions(in: logs)
        #expect(stored.count == sampled)
        #expect(sampled > 10)
        #expect(stored.allSatisfy { Self.trace(of: $0)?["data"]?.objectValue?["sentry.sample_rate"] == .double(0.5) })
        let failed = stored.filter { transaction in
            guard case .array(let spans)? = transaction["spans"] else { return false }
            return spans.contains { $0.objectValue?["data"]?.objectValue?["http.response.status_code"] == .int(503) }
        }.count

        // and `faultline routes` estimates the route's requests from them, each span counting for two, apart from
        // the counted routes (there are none: the SDK sends no request outcomes)
        let report = try #require(
            try JSONSerialization.jsonObject(
                with: try await BuiltFaultline.run(["routes", "--json", "--log-dir", logs.path])) as? [String: Any])
        #expect((report["routes"] as? [Any])?.isEmpty == true)
        let estimated = try #require(report["estimated_routes"] as? [[String: Any]])
        #expect(estimated.count == 1)
        let route = try #require(estimated.first)
        #expect(route["method"] as? String == "GET" && route["route"] as? String == "/users/*")
        #expect(route["estimated"] as? Bool == true)
        #expect(route["spans"] as? Int == sampled && route["sample_rates"] as? [Double] == [0.5])
        let totals = try #require(route["totals"] as? [String: Any])
        #expect(totals["requests"] as? Int == 2 * sampled)
        #expect(totals["failures"] as? Int == 2 * failed)
        // (the SDK samples at random: which of the 15 failures it kept differs from run to run, none of them too)
        #expect(((totals["outcomes"] as? [String: Int])?["server.5xx"] ?? 0) == 2 * failed)
        let text = String(decoding: try await BuiltFaultline.run(["routes", "--log-dir", logs.path]), as: UTF8.self)
        #expect(text.contains("estimated from \(sampled) spans"), "\(text)")
        #expect(text.contains("~\(2 * sampled)"), "\(text)")
    }

    @Test func aTransactionSentTwiceIsStoredOnceAndAnUnreadableOneIsRefused() async throws {
        let logs = try ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        let transaction = Data(
            #"{"event_id":"9ec79c33ec9942ab8353589fcb2e04dc","type":"transaction","transaction":"GET /a","start_timestamp":1795000000.5,"timestamp":1795000001.25,"contexts":{"trace":{"trace_id":"771a43a4192642f0b136d5159a501700","span_id":"b7ad6b7169203331","op":"http.client"}},"spans":[]}"#
                .utf8)
        let bodies = [transaction, transaction, Data("<html>".utf8)].map {
            Envelope(header: [:], items: [Envelope.Item(type: "transaction", payload: $0)]).serialized()
        }
        let answers = try await ServeFixture.run(logs: logs) { serve in
            // When a client sends a transaction, sends it again (its answer was lost), and sends one that is not JSON
            var answers: [(Int, String?)] = []
            for body in bodies {
                answers.append(try await serve.post("/api/1/envelope/", body: body, headers: ServeFixture.auth))
            }
            return answers
        }

        // Then the first two are accepted and the transaction stored once; the third is refused, saying why
        #expect(answers.map(\.0) == [200, 200, 400])
        #expect(answers[2].1 == "a transaction item is not a JSON object")
        let stored = try Self.transactions(in: logs)
        #expect(stored.count == 1)
        #expect(stored.first?["event_id"]?.stringValue == "9ec79c33ec9942ab8353589fcb2e04dc")
    }

    @Test func aReportersTransactionsArriveInServesLog() async throws {
        let logs = try ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        let app = try TemporaryDirectory("app")
        defer { app.remove() }
        try await SeedServer.run { server in
            try await ServeFixture.run(logs: logs) { serve in
                // Given an app that records every trace and sends to serve
                var options = Reporter.Options(logDirectory: app.url)
                options.dsn = try DSN(serve.dsn)
                options.tracesSampleRate = 1
                let reporter = try Reporter(options: options)
                let client = BoletoAPI.client(
                    baseURL: server.baseURL,
                    middlewares: [CaptureMiddleware(reporter: reporter, baseURL: server.baseURL)])

                // When it loads two users, in a span of its own
                _ = try? await reporter.withSpan("load users", operation: "ui.load") {
                    for id in [1, 2] {
                        _ = try await client.send(
                            APIRequest<BoletoAPI.Envelope<BoletoAPI.User>>(
                                .get, "/boleto/users/{id}", pathParameters: ["id": String(id)]))
                    }
                }
                #expect(await reporter.close(timeout: patience))
            }
            // Then serve stored the transaction with both requests' spans, in the trace the seed server received
            let stored = try Self.transactions(in: logs)
            let transaction = try #require(stored.first)
            #expect(stored.count == 1)
            #expect(transaction["transaction"]?.stringValue == "load users")
            guard case .array(let spans)? = transaction["spans"] else {
                Issue.record("no spans")
                return
            }
            let received = await server.state.receivedTraces
            #expect(spans.compactMap { $0.objectValue?["span_id"]?.stringValue } == received.map(\.spanID))
            #expect(received.allSatisfy { $0.traceID == Self.trace(of: transaction)?["trace_id"]?.stringValue })
            // and the routes view counts each request the server received once, from the reporter's request
            // outcomes, estimating nothing from its spans
            let report = try #require(
                try JSONSerialization.jsonObject(
                    with: try await BuiltFaultline.run(["routes", "--json", "--log-dir", logs.path])) as? [String: Any])
            #expect((report["totals"] as? [String: Any])?["requests"] as? Int == received.count)
            #expect((report["estimated_routes"] as? [Any])?.isEmpty == true)
            #expect((report["read"] as? [String: Any])?["spans"] as? Int == received.count)
        }
    }
}
