import FaultlineReporting
import Foundation
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
