import Faultline
import FaultlineLogReading
import FaultlineRecords
import FaultlineReporting
import FaultlineServe
import FaultlineTestServer
import FaultlineTriage
import Foundation
import SeedScenarios
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `faultline serve` takes what real clients send (Faultline's pipeline, the official Python SDK) into the local log
/// format that triage reads, and refuses malformed, oversized or unauthenticated requests without going down.
@Suite struct ServeIngestTests {
    @Test func thePipelinesSeedScenarioEventsArriveGroupedForTriage() async throws {
        let temporary = try TemporaryDirectory("app")
        defer { temporary.remove() }
        let appLogs = temporary.url
        let logs = try ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        let (delivered, metrics) = try await ServeFixture.run(logs: logs) { serve in
            // Given an app whose reporter sends to serve, and the seed scenarios failing
            var options = Reporter.Options(logDirectory: appLogs)
            options.release = "boleto@2.4.1"
            options.dsn = try DSN(serve.dsn)
            let reporter = try Reporter(options: options)
            let delivered = try await SeedServer.run { server in
                await CapturedSeedScenarios(server: server, reporter: reporter).run()
                // A full run on 2 cores stalls this test for a minute: flush waits with the suite's patience, and
                // close, with nothing left to send, says whether everything was delivered.
                let flushed = await reporter.flush(timeout: patience)
                return await reporter.close(timeout: .zero) && flushed
            }
            return (delivered, try await serve.metrics())
        }

        // Then serve's log holds the 8 events of the app's own log, in their 6 issues
        let received = await LogScan(files: try LogFile.all(in: logs), filter: EventFilter())
        let local = await LogScan(files: try LogFile.all(in: appLogs), filter: EventFilter())
        #expect(delivered, "delivery: \(DeliveryStatistics.stored(in: LogLayout(appLogs).outbox))")
        #expect(received.events == 8)
        #expect(received.issues.count == 6)
        #expect(Set(received.issues.keys) == Set(local.issues.keys))
        #expect(received.issues.values.map(\.events).sorted() == [1, 1, 1, 1, 2, 2])
        #expect(received.counts.notJSON == 0 && received.counts.notAnEvent == 0)

        // And /metrics counts them by kind, route, status, code and release, and decoding failures by path
        let travels =
            #"faultline_events_received_total{kind="server",route="/boleto/travels",status="400",server_code="40013","#
            + #"release="boleto@2.4.1"}"#
        #expect(metrics[travels] == 2)
        #expect(
            metrics[#"faultline_decoding_failures_total{path="data.profileImage",route="/boleto/users/{id}"}"#] == 2)
        // and every envelope was accepted: one per event, and one per line of request outcomes the app wrote
        let outcomes = try String(
            contentsOf: LogLayout(appLogs).requests.appendingPathComponent("outcomes.jsonl"), encoding: .utf8)
        let outcomeLines = outcomes.split(separator: "\n").count
        #expect(outcomeLines >= 1)
        #expect(metrics[#"faultline_ingest_requests_total{status="200"}"#] == 8 + outcomeLines)
        // and serve keeps the request outcomes the app counted: the same requests, route by route
        let appRoutes = RoutesReport(await RouteOutcomes(files: RouteOutcomes.files(in: appLogs), filter: .init()))
        let serveRoutes = RoutesReport(await RouteOutcomes(files: RouteOutcomes.files(in: logs), filter: .init()))
        #expect(serveRoutes.read.intervals == outcomeLines)
        #expect(serveRoutes.routes == appRoutes.routes)
        #expect(serveRoutes.totals.requests >= 8)
    }

    @Test func pastTheRateLimitRequestsGet429WithRetryAfterAndRateLimitsUntilTheMinuteEnds() async throws {
        let logs = try ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        // (the minute runs on a clock the test moves: however slow the machine, the requests fall where it says)
        let clock = ManualClock()
        try await ServeFixture.run(logs: logs, eventsPerMinute: 2, clock: ElapsedClock(clock)) { serve in
            func send(_ index: Int) async throws -> (status: Int, response: HTTPURLResponse) {
                let id = String(repeating: String(index), count: 32)
                let event = Data(#"{"event_id":"\#(id)","timestamp":"2026-11-23T09:00:00Z"}"#.utf8)
                let envelope = Envelope(eventID: id, eventJSON: event, dsn: nil).serialized()
                return try await serve.send("/api/1/envelope/", body: envelope, headers: ServeFixture.auth)
            }
            // Given two events sent at the start of a minute, with a limit of two a minute
            #expect(try await send(0).status == 200)
            #expect(try await send(1).status == 200)
            // When a third comes 15 s later
            clock.advance(by: .seconds(15))
            let limited = try await send(2)
            // Then it is refused until the minute ends, 45 s later
            #expect(limited.status == 429)
            #expect(limited.response.value(forHTTPHeaderField: "Retry-After") == "45")
            #expect(limited.response.value(forHTTPHeaderField: "X-Sentry-Rate-Limits") == "45:error:key")
            #expect(try await serve.metrics()[#"faultline_events_dropped_total{reason="ratelimited"}"#] == 1)
            // And taken once it has
            clock.advance(by: .seconds(45))
            #expect(try await send(2).status == 200)
        }
        let scan = await LogScan(files: try LogFile.all(in: logs), filter: EventFilter())
        #expect(scan.events == 3)
    }

    @Test func theOfficialPythonSDKsErrorsArriveWithUsersTagsAndBreadcrumbs() async throws {
        let logs = try ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        try await ServeFixture.run(logs: logs) { serve in
            // When sentry-sdk captures three ValueErrors for two users and a message, then flushes
            _ = try await PythonPeer.start("sentry_sdk_client.py", [serve.dsn]).exit().succeeded("sentry_sdk_client.py")
        }

        // Then `faultline issues --json` groups them into two issues, with users, route tag and release
        let report = try JSONDecoder().decode(
            IssuesReport.self, from: try await BuiltFaultline.run(["issues", "--json", "--log-dir", logs.path]))
        let scan = await LogScan(files: try LogFile.all(in: logs), filter: EventFilter())
        #expect(scan.events == 4)
        #expect(report.issues.map(\.events) == [3, 1])
        let cart = try #require(report.issues.first)
        #expect(cart.title == "ValueError: cart is empty")
        #expect(cart.users == 2)
        #expect(cart.route == "/checkout")
        #expect(cart.releases == ["shop-py@1.0"])
        // and `show` reads the SDK's event in full: its breadcrumbs have neither type nor level
        let latest = try #require(scan.latestEvent(of: try scan.issue(cart.id)))
        #expect(latest.breadcrumbs?.values.last?.message == "tapped pay")
        #expect(latest.breadcrumbs?.values.last?.level == .info)
        #expect(scan.counts.ignoredFields == 0)
        // and shows its level, SDK, user with every identity, and tags
        let show = try JSONSerialization.jsonObject(
            with: try await BuiltFaultline.run(["show", cart.id, "--json", "--log-dir", logs.path]))
        let shown = try #require((show as? [String: Any])?["latest"] as? [String: Any])
        #expect(shown["level"] as? String == "error")
        #expect((shown["sdk"] as? String)?.hasPrefix("sentry.python") == true, "\(shown["sdk"] ?? "none")")
        let user = try #require(shown["user"] as? [String: Any])
        #expect(user["email"] as? String != nil && user["username"] as? String != nil)
        #expect(user["ip_address"] as? String == "203.0.113.7")
        #expect((shown["tags"] as? [String: String])?["region"] == "eu-west")
        #expect((shown["exceptions"] as? [String]) == ["ValueError: cart is empty"])
        #expect((shown["server_name"] as? String)?.isEmpty == false)  // the SDK's default: the host's name
        // and its text folds the standard library's frames, which the SDK leaves without in_app, between the app's
        let text = String(
            decoding: try await BuiltFaultline.run(["show", cart.id, "--log-dir", logs.path]), as: UTF8.self)
        #expect(text.contains(" · server \(shown["server_name"] as? String ?? "?") · sentry.python"), "\(text)")
        #expect(text.contains("  … 3 frames not in app"), "\(text)")
        #expect(text.contains("in refuse_empty_cart") && text.contains("in checkout"), "\(text)")
        #expect(!text.contains("json/decoder.py"), "\(text)")
        // and `tags` lists Sentry's built-in tags beside those the SDK sent
        let tags = try #require(
            try JSONSerialization.jsonObject(
                with: try await BuiltFaultline.run(["tags", cart.id, "--json", "--log-dir", logs.path]))
                as? [String: Any])
        let listed = Dictionary(
            uniqueKeysWithValues: (tags["tags"] as? [[String: Any]] ?? []).compactMap { tag in
                (tag["key"] as? String).map { ($0, (tag["values"] as? [[String: Any]])?.first?["value"] as? String) }
            })
        #expect(listed["level"] == "error" && listed["release"] == "shop-py@1.0" && listed["environment"] == "staging")
        #expect(listed["server_name"] == shown["server_name"] as? String)
        #expect(listed["runtime.name"] == "CPython" && listed["runtime"]??.hasPrefix("CPython 3.") == true)
        #expect(listed["region"] == "eu-west" && listed["http.route"] == "/checkout")
        // and the message's user, whose address the SDK sent as {{auto}}, has the address the event came from
        let message = try #require(report.issues.last)
        let shownMessage = try JSONSerialization.jsonObject(
            with: try await BuiltFaultline.run(["show", message.id, "--json", "--log-dir", logs.path]))
        let messageUser = ((shownMessage as? [String: Any])?["latest"] as? [String: Any])?["user"] as? [String: Any]
        #expect(messageUser?["id"] as? String == "cy" && messageUser?["ip_address"] as? String == "127.0.0.1")
        // and --user finds ana's two events by her email and by her username
        for identity in ["ana@example.com", "ana.k", "ana"] {
            let issues = try JSONDecoder().decode(
                IssuesReport.self,
                from: try await BuiltFaultline.run(["issues", "--json", "--user", identity, "--log-dir", logs.path]))
            #expect(issues.issues.map(\.events) == [2], "\(identity)")
        }
    }

    @Test func malformedOversizedAndUnauthenticatedRequestsAreRefusedAndNothingIsStored() async throws {
        let event = Data(#"{"event_id":"0123456789abcdef0123456789abcdef","timestamp":"2026-11-23T09:00:00Z"}"#.utf8)
        let envelope = Envelope(eventID: "0123456789abcdef0123456789abcdef", eventJSON: event, dsn: nil).serialized()
        let bomb = Gzip.compress(Data(count: 64 * 1024 * 1024))
        let huge = Envelope(
            eventID: "0123456789abcdef0123456789abcdef",
            eventJSON: Data(#"{"x":""#.utf8) + Data(repeating: 0x61, count: 2 << 20) + Data(#""}"#.utf8),
            dsn: nil
        ).serialized()
        let auth = ServeFixture.auth
        let gzip = auth.merging(["Content-Encoding": "gzip"]) { $1 }
        let cases: [(String, String, Data, [String: String], Int)] = [
            ("no key", "/api/1/envelope/", envelope, [:], 401),
            ("a wrong key", "/api/1/envelope/", envelope, ["X-Sentry-Auth": "Sentry sentry_key=wrong"], 403),
            ("another project", "/api/2/envelope/", envelope, auth, 404),
            ("garbage", "/api/1/envelope/", Data("garbage".utf8), auth, 400),
            ("an event that is not JSON", "/api/1/envelope/", Data("{}\n{\"type\":\"event\"}\nnope\n".utf8), auth, 400),
            ("corrupt gzip", "/api/1/envelope/", Data("not gzip".utf8), gzip, 400),
            ("truncated gzip", "/api/1/envelope/", Gzip.compress(envelope).dropLast(9), gzip, 400),
            ("a gzip bomb", "/api/1/envelope/", bomb, gzip, 413),
            (
                "an unknown encoding", "/api/1/envelope/", envelope, auth.merging(["Content-Encoding": "zstd"]) { $1 },
                400
            ),
            ("an event over 1 MiB", "/api/1/envelope/", huge, auth, 413),
            ("an HTML page", "/api/1/store/", Data("<html>502</html>".utf8), auth, 400),
        ]
        let logs = try ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        try await ServeFixture.run(logs: logs) { serve in
            for (name, path, body, headers, status) in cases {
                let (answered, reason) = try await serve.post(path, body: body, headers: headers)
                #expect(answered == status, "\(name)")
                #expect(reason?.isEmpty == false, "\(name) says why")
            }
            // The same event three ways, gzip, in the envelope's dsn, on the legacy store endpoint: stored once
            #expect(try await serve.post("/api/1/envelope/", body: Gzip.compress(envelope), headers: gzip).0 == 200)
            let withDSN = Envelope(
                eventID: "0123456789abcdef0123456789abcdef", eventJSON: event, dsn: try DSN(serve.dsn))
            #expect(try await serve.post("/api/1/envelope/", body: withDSN.serialized()).0 == 200)
            #expect(try await serve.post("/api/1/store/?sentry_key=\(ServeFixture.publicKey)", body: event).0 == 200)
            let (health, _) = try await URLSession.shared.data(from: serve.baseURL.appendingPathComponent("health"))
            #expect(String(decoding: health, as: UTF8.self) == "ok\n")
            let (version, _) = try await URLSession.shared.data(from: serve.baseURL.appendingPathComponent("version"))
            #expect(
                try JSONDecoder().decode([String: String].self, from: version)
                    == ["name": "faultline", "version": FaultlineVersion.current])
            // A client report is counted, not stored
            let reportEnvelope = RelayFixture.clientReportEnvelope(reason: "queue_overflow", quantity: 7)
            #expect(try await serve.post("/api/1/envelope/", body: reportEnvelope.serialized(), headers: auth).0 == 200)
            let metrics = try await serve.metrics()
            #expect(
                metrics[#"faultline_client_discarded_events_total{reason="queue_overflow",category="error"}"#] == 7)
            #expect(metrics[#"faultline_events_dropped_total{reason="duplicate"}"#] == 2)
            #expect(metrics[#"faultline_events_dropped_total{reason="malformed"}"#] == 6)
            #expect(metrics[#"faultline_events_dropped_total{reason="too_large"}"#] == 2)
            #expect(metrics[#"faultline_events_dropped_total{reason="unauthorized"}"#] == 3)
        }
        let scan = await LogScan(files: try LogFile.all(in: logs), filter: EventFilter())
        #expect(scan.events == 1)
    }

    @Test func eventsWithoutAnIDOrATimeOrOnSeveralLinesAreStoredAsOneLineWithBoth() async throws {
        // Given an envelope whose event has no event_id and is pretty-printed on several lines, one with a numeric
        // timestamp, and one whose timestamp is `true`
        let pretty = Data("{\n  \"message\": \"on \\\"two\\\" lines\",\n  \"level\": \"error\"\n}".utf8)
        let numeric = Data(#"{"event_id":"11111111111111111111111111111111","timestamp":1795000000.5}"#.utf8)
        let notATime = Data(#"{"event_id":"22222222222222222222222222222222","timestamp":true,"n":1e2}"#.utf8)
        let logs = try ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        try await ServeFixture.run(logs: logs) { serve in
            let first = Envelope(
                header: ["event_id": "33333333333333333333333333333333"],
                items: [
                    .init(type: "event", payload: pretty)
                ])
            for envelope in [
                first, Envelope(header: [:], items: [.init(type: "event", payload: numeric)]),
                Envelope(header: [:], items: [.init(type: "event", payload: notATime)]),
            ] {
                let (status, _) = try await serve.post(
                    "/api/1/envelope/", body: envelope.serialized(), headers: ServeFixture.auth)
                #expect(status == 200)
            }
        }

        // Then each is one line of the log with an id and a time: the envelope's id for the first, the numeric
        // timestamp kept, `true` replaced by the time it was received
        let lines = try String(decoding: Data(contentsOf: logs.appendingPathComponent("events.jsonl")), as: UTF8.self)
            .split(separator: "\n")
        #expect(lines.count == 3)
        let events = try lines.map { try #require(try JSONValue(parsing: Data($0.utf8)).objectValue) }
        #expect(events[0]["event_id"] == "33333333333333333333333333333333")
        #expect(events[0]["message"] == #"on "two" lines"#)
        #expect(events[0]["timestamp"]?.stringValue.flatMap(RFC3339.seconds) != nil)
        #expect(events[1]["timestamp"] == .double(1_795_000_000.5))
        #expect(lines[1] == Substring(decoding: numeric, as: UTF8.self))
        #expect(events[2]["timestamp"]?.stringValue.flatMap(RFC3339.seconds) != nil)
        #expect([.int(100), .double(100)].contains(events[2]["n"]), "the number keeps its value")
    }
}
