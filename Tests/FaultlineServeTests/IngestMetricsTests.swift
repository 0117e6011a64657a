import FaultlineLogReading
import FaultlineRecords
import FaultlineReporting
import Foundation
import TestSupport
import Testing

@testable import FaultlineServe
@testable import FaultlineTriage

/// `/metrics` stays bounded whatever clients send, and speaks the Prometheus text format.
@Suite struct IngestMetricsTests {
    @Test func pastFiveHundredLabelSetsNewOnesAreCountedAsOther() throws {
        var metrics = IngestMetrics()
        for index in 0..<600 {
            var record = EventRecord(eventID: String(index), timestamp: 0)
            record.tags = ["error.kind": "server", "http.route": "/items/\(index)\"\n\\"]
            metrics.countStored(record)
        }
        let lines = metrics.exposition().split(separator: "\n").filter {
            $0.hasPrefix("faultline_events_received_total{")
        }
        #expect(lines.count == IngestMetrics.maximumSeries + 1)
        #expect(
            lines.contains(
                #"faultline_events_received_total{kind="other",route="other",status="other",server_code="other",release="other"} 100"#
            ))
        #expect(lines.contains { $0.contains(#"route="/items/7\"\n\\""#) })  // quote, line feed and backslash escaped
    }
}

/// `/metrics` counts each event as it is stored: scrubbed, and alike whether serve stores it as sent or rewrites it.
@Suite struct ReceivedEventMetricsTests {
    @Test func theMetricsCountTheScrubbedEventsRouteStatusAndCodeAsTheLogHoldsThem() async throws {
        // Given events whose route holds a secret: one stored as sent, one serve rewrites (it spans lines and has
        // an upper-case id), one with its tags as pairs, and a decoding failure whose path holds the secret too
        let secret = "sk_4f9a8c7e2b"
        let now = Date().timeIntervalSince1970
        let tags: String =
            #"{"error.kind":"server","http.route":"/users/{id}?api_key=\#(secret)","http.status_code":401,"#
            + #""server.code":"40101"}"#
        let id = { UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased() }
        let asSent: String = #"{"event_id":"\#(id())","timestamp":\#(now),"release":"app@1.0","tags":\#(tags)}"#
        let rewritten: String =
            "{\n \"event_id\": \"\(id().uppercased())\",\n \"timestamp\": \(now),\n \"release\": \"app@1.0\",\n \"tags\": \(tags)\n}"
        let pairs: String =
            #"{"event_id":"\#(id())","timestamp":\#(now),"release":"app@1.0","tags":[["error.kind","server"],"#
            + #"["http.route","/users/{id}?api_key=\#(secret)"],["http.status_code","401"],["server.code","40101"]]}"#
        let decoding: String =
            #"{"event_id":"\#(id())","timestamp":\#(now),"tags":{"error.kind":"decoding","#
            + #""decoding.path":"data.token?api_key=\#(secret)","http.route":"/users/{id}"}}"#
        let events = [asSent, rewritten, pairs, decoding]
        let items = events.map { Envelope.Item(type: "event", payload: Data($0.utf8)) }
        let body = Envelope(header: [:], items: items).serialized()
        let logs = try ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        let metrics = try await ServeFixture.run(logs: logs) { serve in
            // When they reach serve in one envelope
            let (status, reason) = try await serve.post("/api/1/envelope/", body: body, headers: ServeFixture.auth)
            #expect(status == 200, "\(reason ?? "")")
            return try await serve.metrics()
        }
        let exposition = metrics.keys.sorted().joined(separator: "\n")

        // Then each is counted by the labels of the event the log holds, the secret filtered, whichever way it was read
        let received =
            #"faultline_events_received_total{kind="server",route="/users/{id}?api_key=[Filtered]",status="401","#
            + #"server_code="40101",release="app@1.0"}"#
        #expect(metrics[received] == 3, "\(exposition)")
        #expect(
            metrics[
                #"faultline_decoding_failures_total{path="data.token?api_key=[Filtered]",route="/users/{id}"}"#]
                == 1, "\(exposition)")
        #expect(!exposition.contains(secret))
        let logged = try Data(contentsOf: logs.appendingPathComponent("events.jsonl"))
        #expect(String(decoding: logged, as: UTF8.self).split(separator: "\n").count == 4)
        #expect(logged.range(of: Data(secret.utf8)) == nil)
    }
}

/// A client that goes away in the middle of its body is not a body over the limit.
@Suite struct ClientClosedRequestTests {
    @Test func aClientThatDisconnectsMidBodyIsCountedAsClosedNotTooLarge() async throws {
        let logs = try ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        try await ServeFixture.run(logs: logs) { serve in
            // Given a request that announces 1000 bytes of body, sends 10 and closes the connection
            let head =
                "POST /api/1/envelope/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n"
                + "X-Sentry-Auth: Sentry sentry_key=\(ServeFixture.publicKey)\r\n\r\n0123456789"
            let connection = try LoopbackConnection(port: serve.port)
            #expect(connection.write(head))
            connection.close()

            // Then the metrics count it as closed by the client, and nothing as too large
            var metrics: [String: Int] = [:]
            _ = try await eventually {
                metrics = try await serve.metrics()
                return metrics[#"faultline_events_dropped_total{reason="client_closed"}"#] != nil
            }
            #expect(metrics[#"faultline_events_dropped_total{reason="client_closed"}"#] == 1)
            #expect(metrics[#"faultline_events_dropped_total{reason="too_large"}"#] == nil)
        }
    }
}
