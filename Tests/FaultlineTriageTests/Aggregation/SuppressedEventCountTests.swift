import Faultline
import FaultlineLogReading
import FaultlineReporting
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import FaultlineTriage

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The events a reporter's fingerprint limit suppressed count in every number the CLI gives, through the
/// `faultline.suppressed` tag of the event that carries them.
@Suite struct SuppressedEventCountTests {
    static let window = ["--since", "2026-11-24T09:00:00Z", "--until", "2026-11-24T10:00:00Z"]

    @Test func anIssuesEventCountIncludesTheEventsItsReporterSuppressed() async throws {
        let logs = try await Self.stormLogs()
        defer { try? FileManager.default.removeItem(at: logs) }

        // When the CLI reads a log of 3 timeouts that carry 10 suppressed ones, and a message
        let issues = try JSONDecoder().decode(
            IssuesReport.self, from: try await BuiltFaultline.run(["issues", "--json", "--log-dir", logs.path]))
        let summary = try Self.object(try await BuiltFaultline.run(["summary", "--json", "--log-dir", logs.path]))
        let timeout = try #require(issues.issues.first)
        let show = try Self.object(
            try await BuiltFaultline.run(["show", timeout.id, "--json", "--log-dir", logs.path]))
        let incident = try Self.object(
            try await BuiltFaultline.run(["incident", "--json", "--log-dir", logs.path] + Self.window))

        // Then the timeout issue has 13 events everywhere, and the log 14
        #expect(issues.issues.map(\.events) == [13, 1])
        #expect(issues.events == 14)
        #expect(summary["event_count"] as? Int == 14)
        #expect((show["issue"] as? [String: Any])?["events"] as? Int == 13)
        #expect((show["users"] as? [[String: Any]])?.first?["events"] as? Int == 13)
        #expect(incident["event_count"] as? Int == 14)
        let flagged = try #require(
            (incident["flagged"] as? [[String: Any]])?.first { $0["id"] as? String == timeout.id })
        let spike = (flagged["signals"] as? [String: Any])?["spike"] as? [String: Any]
        #expect(spike?["window_events"] as? Int == 13)
        #expect(spike?["window_per_hour"] as? Double == 13)
    }

    @Test func anEventReadTwiceCountsItsSuppressedEventsOnce() async throws {
        let logs = try await Self.stormLogs()
        defer { try? FileManager.default.removeItem(at: logs) }
        let files = try LogFile.all(in: logs)

        // When the log is named twice, each read as a piece of its own
        let scan = await LogScan(files: files + files, filter: EventFilter(), pieceSize: 1)

        // Then the counts are those of one read
        #expect(scan.events == 14)
        #expect(scan.issues.values.map(\.events).sorted() == [1, 13])
        #expect(scan.minutes.values.reduce(0, +) == 14)
        #expect(scan.counts.duplicates == 4)
    }

    /// A log the pipeline wrote with a limit of 2 events of a fingerprint a minute: 12 timeouts at 09:10 (2 kept),
    /// then at 09:11 a timeout that carries the 10 suppressed, and a message.
    private static func stormLogs() async throws -> URL {
        let logs = try TemporaryDirectory("storm").url
        let clock = Mutex(Date(timeIntervalSince1970: 1_795_511_400))  // 2026-11-24T09:10:00Z
        var options = Reporter.Options(logDirectory: logs)
        options.clock = { clock.withLock { $0 } }
        options.fingerprintLimit = .init(events: 2, per: .seconds(60))
        let reporter = try Reporter(options: options)
        await reporter.setUser(UserContext(id: "ana"))
        let url = URL(string: "https://api.example/v1/boletos")!
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        func timeout() async {
            await reporter.capture(
                request: request, route: "/v1/boletos", response: nil, body: nil, error: URLError(.timedOut))
        }
        for _ in 0..<12 { await timeout() }
        clock.withLock { $0 += 60 }
        await timeout()
        await reporter.capture(message: "checkout opened without a cart")
        await reporter.close()
        return logs
    }

    private static func object(_ json: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
    }
}
