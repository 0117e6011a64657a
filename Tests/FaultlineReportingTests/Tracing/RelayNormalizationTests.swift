import Faultline
import FaultlineRecords
import FaultlineReporting
import FaultlineTestServer
import Foundation
import SeedScenarios
import TestSupport
import Testing

/// Relay's own normalizer (the `sentry-relay` library Sentry's ingest runs) takes every transaction the reporter writes
/// and the events linked to them as they are: no error, nothing removed or trimmed, every span kept. Each is written
/// as `EventEncoder` writes an event: one line, keys sorted at every level.
@Suite struct RelayNormalizationTests {
    /// What the normalizer said of one line.
    struct Normalized: Decodable {
        let eventID: String?
        let type: String?
        let errors: [JSONValue]
        let meta: [String]
        let spans: Int
        let trace: [String: JSONValue]?

        enum CodingKeys: String, CodingKey {
            case eventID = "event_id"
            case type, errors, meta, spans, trace
        }
    }

    @Test func relaysNormalizerAcceptsEveryTransactionAndEventAsWritten() async throws {
        let log = try LogDirectory()
        defer { log.remove() }
        try await SeedServer.run { server in
            // Given a reporter that records every trace
            let setup = try await CaptureMiddlewareTests.setup(server, log: log) { $0.tracesSampleRate = 1 }
            let client = setup.client
            let reporter = setup.reporter
            await reporter.setUser(UserContext(id: "KAKAO_kim", segment: "KAKAO"))

            // When it loads a user, one that fails to decode, a travel refused with a business code, a screen of two
            // users in a span of its own (which fails), and a user in a trace a caller continued
            _ = try? await client.send(CaptureMiddlewareTests.user(1))
            _ = try? await client.send(CaptureMiddlewareTests.user(20))
            _ = try? await client.send(APIRequest<EmptyResponse>(.post, "/boleto/travels"))
            _ = try? await reporter.withSpan("load profile screen", operation: "ui.load") {
                _ = try await client.send(CaptureMiddlewareTests.user(2))
                _ = try await client.send(CaptureMiddlewareTests.user(40))
            }
            let caller = try #require(SpanContext(sentryTrace: "771a43a4192642f0b136d5159a501700-b7ad6b7169203331-1"))
            _ = try? await SpanContext.$current.withValue(caller) {
                try await client.send(CaptureMiddlewareTests.user(3))
            }
            #expect(await reporter.close(timeout: patience))
        }
        let transactionsFile = LogLayout(log.url).requests.appendingPathComponent("transactions.jsonl")
        let output = try await PythonPeer.start(
            "relay_normalize.py", [transactionsFile.path, log.url.appendingPathComponent("events.jsonl").path]
        ).exit().succeeded("relay_normalize.py").output
        let normalized = try String(decoding: output, as: UTF8.self).split(separator: "\n").map {
            try JSONDecoder().decode(Normalized.self, from: Data($0.utf8))
        }

        // Then Relay read 5 transactions (the screen's holding its two requests) and the 3 failures' events
        #expect(normalized.filter { $0.type == "transaction" }.map(\.spans) == [0, 0, 0, 2, 0])
        #expect(normalized.filter { $0.type != "transaction" }.count == 3)
        // with no error and nothing it had to remove, trim or correct
        for line in normalized {
            #expect(line.errors.isEmpty, "\(line.eventID ?? "?"): \(line.errors)")
            #expect(line.meta.isEmpty, "\(line.eventID ?? "?"): \(line.meta)")
            #expect(line.trace?["trace_id"]?.stringValue?.count == 32)
        }
        // And every line, a transaction's as an event's, is the one writer's compact form, keys sorted at every level
        for file in [transactionsFile, log.url.appendingPathComponent("events.jsonl")] {
            for line in try Data(contentsOf: file).split(separator: 0x0A) {
                let rewritten = try JSONValue(parsing: line).compactJSON
                #expect(String(decoding: rewritten, as: UTF8.self) == String(decoding: line, as: UTF8.self))
            }
        }
    }
}
