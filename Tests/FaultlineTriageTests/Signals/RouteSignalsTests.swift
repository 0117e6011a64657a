import FaultlineRecords
import FaultlineReporting
import Foundation
import TestSupport
import Testing

@testable import FaultlineTriage

/// `faultline incident` flags a route whose share of failed requests spiked against the baseline, and one that got
/// slower in the newest release, from planted request outcomes; a steady route and one with too few requests are not.
@Suite struct RouteSignalsTests {
    /// The window: 2026-11-24 09:00 to 10:00 UTC, and a baseline of the 24 hours before.
    static let end = Date(timeIntervalSince1970: 1_795_514_400)
    static let start = end - 3600
    static let window = ["--since", "2026-11-24T09:00:00Z", "--until", "2026-11-24T10:00:00Z"]
    static let users = RequestOutcomes.Route(method: "GET", route: "/users/{id}")
    static let search = RequestOutcomes.Route(method: "GET", route: "/search")
    static let health = RequestOutcomes.Route(method: "GET", route: "/health")
    static let rare = RequestOutcomes.Route(method: "POST", route: "/export")

    /// A log directory whose reporters counted, a minute at a time:
    /// - in the baseline, app@1.1: `/users/{id}` 1 failure in 1200 requests, `/search` at 60 ms, `/health` 1 % failing;
    /// - in the window, app@1.2: `/users/{id}` 5 % failing (decoding), `/search` at 180 ms, `/health` still 1 %,
    ///   `/export` 2 of 3 failing.
    static func plantedLog() throws -> TemporaryDirectory {
        let logs = try TemporaryDirectory("route-signals")
        var lines: [Data] = []
        for minute in 0..<20 {
            // the baseline: 12 hours to 11 hours 40 before the window
            var before = RequestOutcomes(
                start: start - 12 * 3600 + Double(minute * 60), release: "app@1.1", environment: "production")
            before.end = before.start + 60
            for index in 0..<60 {
                let failed = minute == 0 && index == 0
                before.record(users, outcome: failed ? "server.5xx" : "ok", duration: .milliseconds(20))
                before.record(search, outcome: "ok", duration: .milliseconds(60))
                before.record(
                    health, outcome: index < 6 && minute % 10 == 0 ? "transport" : "ok", duration: .milliseconds(5))
            }
            lines.append(before.line())
            // the window: its first 20 minutes
            var now = RequestOutcomes(
                start: start + Double(minute * 60), release: "app@1.2", environment: "production")
            now.end = now.start + 60
            for index in 0..<60 {
                now.record(users, outcome: index % 20 == 0 ? "decoding.2xx" : "ok", duration: .milliseconds(20))
                now.record(search, outcome: "ok", duration: .milliseconds(180))
                now.record(
                    health, outcome: index < 6 && minute % 10 == 0 ? "transport" : "ok", duration: .milliseconds(5))
            }
            if minute == 0 {
                for index in 0..<3 { now.record(rare, outcome: index < 2 ? "server.5xx" : "ok", duration: .seconds(1)) }
            }
            lines.append(now.line())
        }
        let folder = LogLayout(logs.url).requests
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(lines.joined(separator: Data("\n".utf8)) + Data("\n".utf8))
            .write(to: folder.appendingPathComponent("outcomes.jsonl"))
        return logs
    }

    @Test func theIncidentViewFlagsTheRoutesThatFailMoreOftenOrGotSlower() async throws {
        let logs = try Self.plantedLog()
        defer { logs.remove() }

        let json = try await BuiltFaultline.run(["incident", "--json", "--log-dir", logs.path] + Self.window)
        let report = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        let routes = try #require(report["routes"] as? [[String: Any]])

        // Then the two planted routes are flagged, the most failed requests first, and nothing else
        #expect(routes.map { $0["route"] as? String } == ["/users/{id}", "/search"])
        let users = try #require(routes.first)
        #expect(users["failure_rate_spiking"] as? Bool == true && users["latency_regressed"] as? Bool == false)
        let window = try #require(users["window"] as? [String: Any])
        let baseline = try #require(users["baseline"] as? [String: Any])
        #expect(window["requests"] as? Int == 1200 && window["failures"] as? Int == 60)
        #expect(baseline["requests"] as? Int == 1200 && baseline["failures"] as? Int == 1)
        #expect(users["rate_factor"] as? Double == 60)
        // and /search is slower in app@1.2, its p95s within the histogram's 1/32
        let search = try #require(routes.last)
        #expect(search["latency_regressed"] as? Bool == true && search["failure_rate_spiking"] as? Bool == false)
        let latency = try #require(search["latency"] as? [String: Any])
        #expect(latency["release"] as? String == "app@1.2" && latency["previous_release"] as? String == "app@1.1")
        let p95 = try #require(latency["p95"] as? Double)
        let previous = try #require(latency["previous_p95"] as? Double)
        #expect(abs(p95 - 0.18) <= 0.18 / 32 && abs(previous - 0.06) <= 0.06 / 32)

        // and the text shows them beside the issues
        let text = String(
            decoding: try await BuiltFaultline.run(["incident", "--log-dir", logs.path] + Self.window),
            as: UTF8.self)
        #expect(text.contains("GET /users/{id}") && text.contains("failure rate spiking"))
        #expect(text.contains("0.1 % of 1200 → 5.0 % of 1200"))
        let shown = { (seconds: Double) in "\(Int((seconds * 1000).rounded())) ms" }
        #expect(text.contains("\(shown(previous)) in app@1.1 → \(shown(p95)) in app@1.2"))
    }

    @Test func fewerRequestsThanTheMinimumFlagNothing() async throws {
        let logs = try Self.plantedLog()
        defer { logs.remove() }
        // With a minimum above every route's requests, nothing is compared
        let json = try await BuiltFaultline.run(
            ["incident", "--json", "--min-requests", "5000", "--log-dir", logs.path] + Self.window)
        let report = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect((report["routes"] as? [[String: Any]])?.isEmpty == true)
    }
}
