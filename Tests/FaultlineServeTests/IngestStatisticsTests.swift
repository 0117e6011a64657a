import FaultlineLogReading
import FaultlineRecords
import FaultlineReporting
import Foundation
import TestSupport
import Testing

/// What serve received and refused is kept in its log directory across restarts, for `faultline stats`.
@Suite struct IngestStatisticsTests {
    @Test func whatServeReceivedAndRefusedAddsUpAcrossRestartsAndStatsShowsIt() async throws {
        let logs = try ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        let first = RelayFixture.eventEnvelope(RelayFixture.eventID(run: 0x57, 1))
        let wrongKey = ["X-Sentry-Auth": "Sentry sentry_key=\(String(repeating: "0", count: 32)), sentry_version=7"]

        // Given a serve that stored an event, was sent it again, and refused a request with a wrong key and a
        // malformed one
        try await ServeFixture.run(logs: logs) { (serve: ServeFixture) async throws in
            #expect(try await serve.post("/api/1/envelope/", body: first, headers: ServeFixture.auth).0 == 200)
            #expect(try await serve.post("/api/1/envelope/", body: first, headers: ServeFixture.auth).0 == 200)
            #expect(try await serve.post("/api/1/envelope/", body: first, headers: wrongKey).0 == 403)
            #expect(
                try await serve.post("/api/1/envelope/", body: Data("nope".utf8), headers: ServeFixture.auth).0 == 400)
        }
        // When it is started again on the same directory, stores one more event, gets an SDK's client report of
        // two errors it dropped while a 429 held, and, twice, an envelope of a transaction, a session (which its log
        // does not keep, and no forward route takes), an item of a type of the client's own, and request outcomes it
        // cannot read
        let second = RelayFixture.eventEnvelope(RelayFixture.eventID(run: 0x57, 2))
        let report = RelayFixture.clientReportEnvelope(reason: "ratelimit_backoff", quantity: 2).serialized()
        let transaction =
            #"{"type":"transaction","event_id":"\#(RelayFixture.eventID(run: 0x57, 3))","#
            + #""transaction":"GET /users/{id}","start_timestamp":1764000000,"timestamp":1764000001}"#
        let items = Envelope(
            header: [:],
            items: [
                .init(type: "transaction", payload: Data(transaction.utf8)),
                .init(type: "session", payload: Data(#"{"sid":"7f6e","status":"ok","init":true}"#.utf8)),
                .init(type: "my.own.type", payload: Data("{}".utf8)),
                .init(type: RequestOutcomes.type, payload: Data(#"{"routes":"not an array"}"#.utf8)),
            ]
        ).serialized()
        try await ServeFixture.run(logs: logs) { (serve: ServeFixture) async throws in
            #expect(try await serve.post("/api/1/envelope/", body: second, headers: ServeFixture.auth).0 == 200)
            #expect(try await serve.post("/api/1/envelope/", body: report, headers: ServeFixture.auth).0 == 200)
            for _ in 0..<2 {
                #expect(try await serve.post("/api/1/envelope/", body: items, headers: ServeFixture.auth).0 == 200)
            }
        }

        // Then the statistics count both runs: requests by status, events stored, and those not stored by reason
        let statistics = IngestStatistics.stored(in: logs)
        #expect(statistics.requests == ["200": 6, "403": 1, "400": 1])
        #expect(statistics.stored == 2)
        #expect(statistics.dropped == ["duplicate": 1, "unauthorized": 1, "malformed": 1])
        #expect(statistics.droppedBySDKs == ["ratelimit_backoff/error": 2])
        #expect(statistics.updated != nil)
        // and every other item once: stored, or not stored with its reason
        #expect(statistics.storedItems == ["transaction": 1])
        #expect(
            statistics.droppedItems == [
                "duplicate/transaction": 1, "not_kept/session": 2, "not_kept/other": 2,
                "unreadable/faultline.request_outcomes": 2,
            ])
        // and `faultline stats` shows them
        let text = String(decoding: try await BuiltFaultline.run(["stats", "--log-dir", logs.path]), as: UTF8.self)
        #expect(
            text.contains("serve: 8 requests answered (200: 6, 400: 1, 403: 1), 2 events stored (updated "), "\(text)")
        #expect(text.contains("not stored: duplicate 1, malformed 1, unauthorized 1"), "\(text)")
        #expect(text.contains("other items stored: transaction 1\n"), "\(text)")
        #expect(
            text.contains(
                "other items not stored: duplicate/transaction 1, not_kept/other 2, not_kept/session 2, "
                    + "unreadable/faultline.request_outcomes 2 (not_kept: a type the local log does not keep, and no "
                    + "forward route took it)"), "\(text)")
        #expect(text.contains("dropped by the SDKs (their client reports): ratelimit_backoff/error 2"), "\(text)")
        // and nothing of an app's outbox, which serve's directory does not have
        #expect(!text.contains("outbox:") && !text.contains("delivered"), "\(text)")
        let json =
            try JSONSerialization.jsonObject(
                with: try await BuiltFaultline.run(["stats", "--log-dir", logs.path, "--json"])) as? [String: Any]
        let ingest = try #require(json?["ingest"] as? [String: Any])
        #expect(ingest["stored"] as? Int == 2)
    }
}
