import Faultline
import FaultlineRecords
import FaultlineReporting
import FaultlineTestServer
import FaultlineTriage
import Foundation
import SeedScenarios
import TestSupport
import Testing

/// `faultline routes` adds up what the reporters counted: exact requests, failures and rates by route and release,
/// and percentiles within the histogram's 1/32 of the durations the callers waited.
@Suite struct RoutesCommandTests {
    struct Report: Decodable {
        struct Requests: Decodable {
            struct Durations: Decodable {
                let p50: Double?
                let p95: Double?
                let p99: Double?
            }

            let requests: Int
            let failures: Int
            let failureRate: Double?
            let outcomes: [String: Int]
            let durationMs: Durations
        }

        struct Route: Decodable {
            struct Release: Decodable {
                let release: String?
                let totals: Requests
            }

            let method: String
            let route: String
            let totals: Requests
            let releases: [Release]
        }

        let schemaVersion: Int
        let totals: Requests
        let routes: [Route]
    }

    /// Sends `count` requests for users 1, 2, … through a client whose reporter writes to `logs` with `release` (and
    /// the options `configure` sets); returns how long each caller waited, in milliseconds.
    static func loadUsers(
        _ count: Int, server: RunningSeedServer, logs: URL, release: String,
        configure: (inout Reporter.Options) -> Void = { _ in }
    ) async throws -> [Double] {
        var options = Reporter.Options(logDirectory: logs)
        options.release = release
        configure(&options)
        let reporter = try Reporter(options: options)
        let tokens = await server.state.issueTokens(for: .boleto)
        let refresher = TokenRefresher(
            authenticator: BoletoAPI.Authenticator(baseURL: server.baseURL), credential: BearerTokens(tokens))
        let client = BoletoAPI.client(
            baseURL: server.baseURL,
            middlewares: [
                CaptureMiddleware(reporter: reporter, baseURL: server.baseURL),
                AuthenticationMiddleware(refresher: refresher),
            ])
        var waits: [Double] = []
        for id in 1...count {
            let start = ContinuousClock.now
            _ = try? await client.send(
                APIRequest<BoletoAPI.Envelope<BoletoAPI.User>>(
                    .get, "/boleto/users/{id}", pathParameters: ["id": String(id)]))
            waits.append((ContinuousClock.now - start) / .milliseconds(1))
        }
        await reporter.close(timeout: patience)
        return waits
    }

    static func routes(_ arguments: [String]) async throws -> Report {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Report.self, from: try await BuiltFaultline.run(["routes", "--json"] + arguments))
    }

    @Test func aThousandRequestsWithFivePercentFailuresAndPlantedLatencyAreReportedExactly() async throws {
        let temporary = try TemporaryDirectory("routes")
        defer { temporary.remove() }
        // Given 1 000 users loaded, every 20th failing to decode, every 10th answered 60 ms late
        let waits = try await SeedServer.run { server in
            await server.state.setUserDelay(.milliseconds(60), forEvery: 10)
            // (the fingerprint limit's window an hour rather than a minute, so that a slow run does not start another)
            return try await Self.loadUsers(1_000, server: server, logs: temporary.url, release: "boleto@2.4.1") {
                $0.fingerprintLimit = Reporter.FingerprintLimit(events: 10, per: .seconds(3_600))
            }
        }

        // Then the route has 1 000 requests, 50 failed, a rate of 5.0 %
        let report = try await Self.routes(["--log-dir", temporary.path])
        #expect(report.schemaVersion == 1)
        let users = try #require(report.routes.first)
        #expect(report.routes.count == 1)
        #expect(users.method == "GET" && users.route == "/boleto/users/{id}")
        #expect(users.totals.requests == 1_000 && users.totals.failures == 50)
        #expect(users.totals.failureRate == 0.05)
        #expect(users.totals.outcomes == ["ok": 950, "decoding.2xx": 50])
        #expect(users.releases.isEmpty)
        // and its percentiles are those of the durations within 1/32: no more than the callers waited, and, with
        // 10 % of them 60 ms late, p95 and p99 at least 60 ms
        let sorted = waits.sorted()
        for (read, fraction) in [
            (users.totals.durationMs.p50, 0.5), (users.totals.durationMs.p95, 0.95),
            (users.totals.durationMs.p99, 0.99),
        ] {
            let read = try #require(read)
            let waited = sorted[Int(fraction * 1_000) - 1]
            #expect(read <= waited * 33 / 32, "p\(Int(fraction * 100)) \(read) ms, callers waited \(waited) ms")
            if fraction > 0.9 { #expect(read >= 60 * 31 / 32, "p\(Int(fraction * 100)) \(read) ms") }
        }
        // and the text says so
        let text = String(
            decoding: try await BuiltFaultline.run(["routes", "--log-dir", temporary.path]), as: UTF8.self)
        #expect(text.contains("1000 requests, 50 failed (5.0 %)"), "\(text)")
        #expect(text.contains("decoding.2xx 50"))

        // And the decoding issue is 50 of the route's 1 000 requests, in issues and show, though its events are fewer
        let issues = try JSONDecoder().decode(
            IssuesReport.self, from: try await BuiltFaultline.run(["issues", "--json", "--log-dir", temporary.path]))
        let decoding = try #require(issues.issues.first { $0.kind == "decoding" })
        // (its events are 10: the fingerprint limit keeps 10 a window, and the others were not carried)
        #expect(decoding.events == 10)
        #expect(decoding.routeRequests == 1_000 && decoding.failedRequests == 50)
        let show = String(
            decoding: try await BuiltFaultline.run(["show", decoding.id, "--log-dir", temporary.path]), as: UTF8.self)
        #expect(show.contains("requests: 50 of 1000 requests (5.0 %)"), "\(show)")
    }

    @Test func anIssueOfAnAppThatSendsOnlySpansHasItsShareOfRequestsEstimatedAndSaysSo() async throws {
        let temporary = try TemporaryDirectory("routes")
        defer { temporary.remove() }
        // Given 200 users loaded, every 20th failing to decode, by an app that records no request outcomes but traces
        // every request
        _ = try await SeedServer.run { server in
            try await Self.loadUsers(200, server: server, logs: temporary.url, release: "boleto@2.5.0") { options in
                options.recordsRequestOutcomes = false
                options.tracesSampleRate = 1
            }
        }

        // Then the decoding issue is 10 of the route's 200 requests, estimated from the spans, and says so
        let issues = try JSONDecoder().decode(
            IssuesReport.self, from: try await BuiltFaultline.run(["issues", "--json", "--log-dir", temporary.path]))
        let decoding = try #require(issues.issues.first { $0.kind == "decoding" })
        #expect(decoding.routeRequests == 200 && decoding.failedRequests == 10)
        #expect(decoding.requestsEstimated)
        let show = String(
            decoding: try await BuiltFaultline.run(["show", decoding.id, "--log-dir", temporary.path]), as: UTF8.self)
        #expect(show.contains("requests: ~10 of ~200 requests (~5.0 %), estimated from sampled spans"), "\(show)")
        let summary = String(
            decoding: try await BuiltFaultline.run(["summary", "--log-dir", temporary.path]), as: UTF8.self)
        #expect(summary.contains("~5.0 % of ~200"), "\(summary)")
        // and with no spans either, the route has no request counts
        try FileManager.default.removeItem(at: LogLayout(temporary.url).requests)
        let without = try JSONDecoder().decode(
            IssuesReport.self, from: try await BuiltFaultline.run(["issues", "--json", "--log-dir", temporary.path]))
        let alone = try #require(without.issues.first { $0.kind == "decoding" })
        #expect(alone.routeRequests == nil && !alone.requestsEstimated)
    }

    @Test func eachReleaseOfARouteIsCountedApartAndTheFiltersNarrowThem() async throws {
        let temporary = try TemporaryDirectory("routes")
        defer { temporary.remove() }
        // Given 40 requests from release 1 and 20 from release 2, in the same log directory
        try await SeedServer.run { server in
            _ = try await Self.loadUsers(40, server: server, logs: temporary.url, release: "app@1")
            _ = try await Self.loadUsers(20, server: server, logs: temporary.url, release: "app@2")
        }

        // Then the route has 60 requests, 3 failed, and each release its own
        let report = try await Self.routes(["--log-dir", temporary.path])
        let route = try #require(report.routes.first)
        #expect(route.totals.requests == 60 && route.totals.failures == 3)
        #expect(route.releases.map(\.release) == ["app@1", "app@2"])
        #expect(route.releases.map(\.totals.requests) == [40, 20])
        #expect(route.releases.map(\.totals.failures) == [2, 1])
        // and --release, --route and the window narrow them
        #expect(try await Self.routes(["--log-dir", temporary.path, "--release", "app@2"]).totals.requests == 20)
        #expect(try await Self.routes(["--log-dir", temporary.path, "--route", "/other"]).routes.isEmpty)
        #expect(try await Self.routes(["--log-dir", temporary.path, "--until", "2026-01-01"]).totals.requests == 0)
    }

    @Test func unreadableLinesAreSkippedAndCountedAndAMissingDirectoryIsAnError() async throws {
        let temporary = try TemporaryDirectory("routes")
        defer { temporary.remove() }
        let folder = temporary.url.appendingPathComponent("requests")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var outcomes = RequestOutcomes(start: Date(timeIntervalSince1970: 1_795_000_000))
        outcomes.record(.init(method: "GET", route: "/a"), outcome: "transport", duration: .milliseconds(3))
        let lines = [
            String(decoding: outcomes.line(), as: UTF8.self), "<html>502</html>",
            #"{"type":"faultline.request_outcomes","routes":"none"}"#, "",
        ]
        try Data(lines.joined(separator: "\n").utf8).write(to: folder.appendingPathComponent("outcomes.jsonl"))

        let text = String(
            decoding: try await BuiltFaultline.run(["routes", "--log-dir", temporary.path]), as: UTF8.self)
        #expect(text.contains("GET /a"))
        #expect(text.contains("skipped: 2 unreadable lines"), "\(text)")
        let missing = try await BuiltFaultline.outcome(of: ["routes", "--log-dir", temporary.path + "/missing"])
        #expect(missing.status == 2)
        #expect(missing.errors.contains("missing"), "\(missing.errors)")
    }
}
