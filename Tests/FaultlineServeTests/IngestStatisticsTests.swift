import FaultlineLogReading
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
        // When it is started again on the same directory, stores one more event, and gets an SDK's client report of
        // two errors it dropped while a 429 held
        let second = RelayFixture.eventEnvelope(RelayFixture.eventID(run: 0x57, 2))
        let report = RelayFixture.clientReportEnvelope(reason: "ratelimit_backoff", quantity: 2).serialized()
        try await ServeFixture.run(logs: logs) { (serve: ServeFixture) async throws in
            #expect(try await serve.post("/api/1/envelope/", body: second, headers: ServeFixture.auth).0 == 200)
            #expect(try await serve.post("/api/1/envelope/", body: report, headers: ServeFixture.auth).0 == 200)
        }

        // Then the statistics count both runs: requests by status, events stored, and those not stored by reason
        let statistics = IngestStatistics.stored(in: logs)
        #expect(statistics.requests == ["200": 4, "403": 1, "400": 1])
        #expect(statistics.stored == 2)
        #expect(statistics.dropped == ["duplicate": 1, "unauthorized": 1, "malformed": 1])
        #expect(statistics.droppedBySDKs == ["ratelimit_backoff/error": 2])
        #expect(statistics.updated != nil)
        // and `faultline stats` shows them
        let text = String(decoding: try await BuiltFaultline.run(["stats", "--log-dir", logs.path]), as: UTF8.self)
        #expect(
            text.contains("serve: 6 requests answered (200: 4, 400: 1, 403: 1), 2 events stored (updated "), "\(text)")
        #expect(text.contains("not stored: duplicate 1, malformed 1, unauthorized 1"), "\(text)")
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
