import FaultlineRecords
import FaultlineReporting
import FaultlineTriage
import Foundation
import TestSupport
import Testing

/// `faultline serve` keeps the request outcomes apps send in its own request outcomes' log: each interval once,
/// however often it is sent, and nothing of an item it cannot read.
@Suite struct ServeRequestOutcomesTests {
    static func envelope(_ items: [Data]) -> Data {
        Envelope(header: [:], items: items.map { Envelope.Item(type: RequestOutcomes.type, payload: $0) }).serialized()
    }

    @Test func anIntervalSentTwiceIsStoredOnceAndAnUnreadableItemIsDropped() async throws {
        let logs = try ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        var outcomes = RequestOutcomes(start: Date(timeIntervalSince1970: 1_795_000_000), release: "app@1")
        outcomes.end = outcomes.start + 60
        for index in 0..<40 {
            outcomes.record(
                .init(method: "GET", route: "/users/{id}"), outcome: index < 2 ? "server.5xx" : "ok",
                duration: .milliseconds(10 + index))
        }
        let line = outcomes.line()
        let (statuses, metrics) = try await ServeFixture.run(logs: logs) { serve in
            // When an app sends an interval, sends it again (its answer was lost), and sends one that is not one
            var statuses: [Int] = []
            for body in [Self.envelope([line]), Self.envelope([line]), Self.envelope([Data(#"{"type":1}"#.utf8)])] {
                statuses.append(try await serve.post("/api/1/envelope/", body: body, headers: ServeFixture.auth).0)
            }
            return (statuses, try await serve.metrics())
        }

        // Then every envelope is accepted, and the interval is stored once, as it was counted
        #expect(statuses == [200, 200, 200])
        let stored = await RouteOutcomes(files: RouteOutcomes.files(in: logs), filter: .init())
        #expect(stored.read.intervals == 1)
        #expect(stored.read.unreadableLines == 0)
        let report = RoutesReport(stored)
        #expect(report.totals.requests == 40 && report.totals.failures == 2)
        #expect(report.routes.map(\.route) == ["/users/{id}"])
        // and /metrics counts the requests by route and outcome, and their durations (10 to 49 ms) in a histogram
        let route = #"method="GET",route="/users/{id}""#
        #expect(metrics["faultline_requests_total{\(route),outcome=\"ok\",release=\"app@1\"}"] == 38)
        #expect(metrics["faultline_requests_total{\(route),outcome=\"server.5xx\",release=\"app@1\"}"] == 2)
        #expect(metrics["faultline_request_duration_seconds_count{\(route)}"] == 40)
        let buckets = ["0.005", "0.01", "0.025", "0.05", "+Inf"].map {
            metrics["faultline_request_duration_seconds_bucket{\(route),le=\"\($0)\"}"]
        }
        #expect(buckets == [0, 1, 15, 40, 40])
        // and the events' log holds no line of them
        let events = try String(contentsOf: logs.appendingPathComponent("events.jsonl"), encoding: .utf8)
        #expect(events.isEmpty)
    }

    @Test func aRestartedServeKnowsTheIntervalsItStored() async throws {
        let logs = try ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        var outcomes = RequestOutcomes(start: Date(timeIntervalSince1970: 1_795_000_000))
        outcomes.record(.init(method: "GET", route: "/a"), outcome: "transport", duration: .seconds(30))
        let body = Self.envelope([outcomes.line()])
        for _ in 0..<2 {
            let status = try await ServeFixture.run(logs: logs) { serve in
                try await serve.post("/api/1/envelope/", body: body, headers: ServeFixture.auth).0
            }
            #expect(status == 200)
        }
        #expect(await RouteOutcomes(files: RouteOutcomes.files(in: logs), filter: .init()).read.intervals == 1)
    }
}
