import FaultlineLogReading
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
            metrics.countReceived(record)
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
