import FaultlineLogReading
import FaultlineTestServer
import FaultlineTriage
import Foundation
import LoopbackPorts
import TestSupport
import Testing

/// `faultline-demo` as the README runs it (`scripts/demo`): every seed scenario captured, an ingest outage ridden out by the outbox,
/// and the same events in the app's log and the ingest's.
@Suite struct DemoCommandTests {
    @Test func theDemoDeliversEveryCapturedEventThroughTheOutageAndSummarizesThem() async throws {
        let temporary = try TemporaryDirectory("demo-test")
        defer { temporary.remove() }
        let logs = temporary.url
        let printed = String(
            decoding: try await BuiltFaultline.run(["--log-dir", logs.path], program: BuiltFaultline.demo),
            as: UTF8.self)

        #expect(printed.contains("--  the ingest goes down: events wait in the log"))
        #expect(printed.contains("Every event was delivered."))
        #expect(printed.contains("The ingest received 11 events"))
        #expect(printed.contains("11 events in 7 issues, 6 users affected"))
        // and the proxy error's trace, which the seed server received, is the one its event names
        #expect(printed.contains("the seed server received GET /proxy/users/7 in trace "))
        #expect(printed.contains("its event names the same trace"))
        // and the summary gives the decoding issue's share of its route's requests
        #expect(printed.contains("3.8 % of 130"))
        let app = await LogScan(files: try LogFile.all(in: logs), filter: EventFilter())
        let ingest = await LogScan(
            files: try LogFile.all(in: logs.appendingPathComponent("ingest")), filter: EventFilter())
        #expect(app.kinds == ["server": 4, "decoding": 5, "transport": 1, "session_expired": 1])
        #expect(app.issues.count == 7)
        #expect(ingest.issues == app.issues)
        #expect(ingest.counts.duplicates == 0 && ingest.events == 11)
    }

    @Test func aDemoWhoseEventsCannotBeDeliveredSaysSoAndExits1() async throws {
        let temporary = try TemporaryDirectory("demo-test")
        defer { temporary.remove() }
        let logs = temporary.url
        let closed = try ClosedPort()
        defer { closed.release() }

        // When the demo delivers to a DSN where nothing listens, waiting a second at the end
        let outcome = try await BuiltFaultline.outcome(
            of: ["--log-dir", logs.path, "--dsn", "http://key@127.0.0.1:\(closed.port)/1", "--timeout", "1"],
            program: BuiltFaultline.demo)

        // Then it says so, still summarizes what the app captured, and exits 1
        let printed = String(decoding: outcome.output, as: UTF8.self)
        #expect(printed.contains("Some events were not delivered: see faultline stats."))
        #expect(printed.contains("11 events in 7 issues, 6 users affected"))
        #expect(outcome.status == 1)
    }
}
