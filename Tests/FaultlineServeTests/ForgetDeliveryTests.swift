import FaultlineLogReading
import FaultlineRecords
import FaultlineReporting
import FaultlineServe
import FaultlineTriage
import Foundation
import TestSupport
import Testing

/// After `faultline forget`, an app whose events waited for an outage sends every other event and none of the
/// forgotten user's, and counts nothing as lost: the blanked lines and envelopes are passed over, not sent as broken
/// payloads nor counted as `internal_sdk_error`.
@Suite struct ForgetDeliveryTests {
    @Test func anAppSendsEveryWaitingEventButTheForgottenUsersAndCountsNoneAsLost() async throws {
        let app = try TemporaryDirectory("forget-app")
        let serveLogs = try TemporaryDirectory("forget-serve")
        defer {
            app.remove()
            serveLogs.remove()
        }
        // Given serve down while an app logs 60 events of six users, and two envelopes wait in its outbox
        let ingest = try await OutageFixture.downIngest(logs: serveLogs.url)
        let options = try OutageFixture.appOptions(logs: app.url, sendingTo: ingest)
        var reporter = try Reporter(options: options)
        for index in 0..<60 {
            await reporter.capture(
                message: "failure \(index)", level: .error, user: UserContext(id: "user-\(index % 6)"))
        }
        // (every event written to the log before the reporter stops: nothing is sent, serve being down)
        #expect(try await eventually { await reporter.statistics.captured.values.reduce(0, +) == 60 })
        _ = await reporter.close(timeout: .zero)
        let outbox = try Uploader(
            configuration: .init(dsn: try DSN(ingest.dsn), outboxDirectory: options.outboxDirectory))
        for user in ["user-2", "user-4"] {
            let event = try JSONSerialization.data(
                withJSONObject: [
                    "event_id": UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""),
                    "message": "queued for \(user)", "user": ["id": user], "timestamp": Date().timeIntervalSince1970,
                ])
            let id =
                try #require(try JSONSerialization.jsonObject(with: event) as? [String: Any])["event_id"] as? String
            #expect(await outbox.enqueue(Envelope(eventID: try #require(id), eventJSON: event, dsn: nil)))
        }
        _ = await outbox.close(timeout: .zero)
        // and a relay's forward queue beside them holds an envelope of the user too
        let forwardQueue = LogLayout(app.url).forwardQueues.appendingPathComponent("upstream")
        let relay = try Uploader(configuration: .init(dsn: try DSN(ingest.dsn), outboxDirectory: forwardQueue))
        for user in ["user-2", "user-5"] {
            #expect(await relay.enqueue(try Self.session(of: user)))
        }
        _ = await relay.close(timeout: .zero)
        #expect(DeliveryBacklog.inOutbox(forwardQueue).envelopes == 2)

        // When user-2 is forgotten
        let result = try UserErasure(users: ["user-2"]).run(in: app.url)
        #expect(result.erased.map(\.path) == ["events.jsonl", "outbox", "forward/upstream"])
        #expect(result.total == 10 + 1 + 1)
        #expect(DeliveryBacklog.inOutbox(forwardQueue).envelopes == 1)

        // Then, serve back, the app sends the 50 other events and the other queued envelope, and none of user-2's
        try await ingest.restart()
        reporter = try Reporter(options: options)
        #expect(await reporter.flush(timeout: patience))
        _ = await reporter.close()
        try await ingest.stop()
        let stored = try Self.users(in: serveLogs.url)
        #expect(stored.count == 51)
        #expect(!stored.contains("user-2"))
        #expect(Set(stored) == ["user-0", "user-1", "user-3", "user-4", "user-5"])
        let statistics = DeliveryStatistics.stored(in: options.outboxDirectory)
        #expect(statistics.discarded.isEmpty, "\(statistics.discarded)")
    }

    /// An envelope of one session whose distinct id is `user`.
    private static func session(of user: String) throws -> Envelope {
        let session = try JSONSerialization.data(withJSONObject: [
            "sid": UUID().uuidString, "did": user, "init": true, "status": "ok", "started": "2026-11-28T09:00:00Z",
            "attrs": ["release": "app@1"],
        ])
        return Envelope(header: [:], items: [Envelope.Item(type: "session", payload: session)])
    }

    /// The user id of each event in the log `directory`.
    private static func users(in directory: URL) throws -> [String] {
        try EventLog.files(in: directory).flatMap { file in
            try Data(contentsOf: file).split(separator: UInt8(ascii: "\n")).compactMap { line in
                let event = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any]
                return (event?["user"] as? [String: Any])?["id"] as? String
            }
        }
    }
}
