import FaultlineLogReading
import FaultlineRecords
import FaultlineReporting
import FaultlineServe
import FaultlineTestServer
import FaultlineTriage
import Foundation
import TestSupport
import Testing

/// `faultline serve --forward` passes on what SDKs send, as they sent it, with the upstream's key, and keeps the
/// events in its own log.
@Suite struct RelayForwardingTests {
    @Test func envelopesAreForwardedAsReceivedWithTheUpstreamsKeyAndDSN() async throws {
        let logs = try ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        try await RecordingIngest.run { upstream in
            let upstreamDSN = upstream.dsn(publicKey: RelayFixture.upstreamKey, project: 42)
            let metrics = try await ServeFixture.run(
                logs: logs, forwarding: try RelayFixture.forwarding(to: upstreamDSN)
            ) { relay in
                // Given an SDK's envelope with an event and an attachment, its sessions, and its client report
                let id = RelayFixture.eventID(run: 1, 1)
                let event = Data(#"{"event_id":"\#(id)","timestamp":"2026-11-23T09:00:00Z","message":"boom"}"#.utf8)
                let withAttachment = Envelope(
                    header: ["event_id": .string(id), "dsn": .string(relay.dsn), "sent_at": "2026-11-23T09:00:01Z"],
                    items: [
                        .init(type: "event", payload: event),
                        .init(
                            type: "attachment", payload: Data([0, 1, 2, 0xFF]),
                            headers: [
                                "filename": "core.bin", "content_type": "application/octet-stream",
                                "attachment_type": "event.minidump",
                            ]),
                    ])
                let sessions = Envelope(
                    header: [:],
                    items: [
                        .init(
                            type: "sessions",
                            payload: Data(
                                #"{"aggregates":[{"started":"2026-11-23T09:00:00Z","exited":3}],"attrs":{"release":"shop@1"}}"#
                                    .utf8))
                    ])
                let report = RelayFixture.clientReportEnvelope(reason: "queue_overflow", quantity: 2)

                // When it sends them to the relay, the event twice
                for envelope in [withAttachment, sessions, report, withAttachment] {
                    let (status, _) = try await relay.post(
                        "/api/1/envelope/", body: envelope.serialized(), headers: ServeFixture.auth)
                    #expect(status == 200)
                }

                // Then the upstream receives the three, once each, with its own key and DSN
                try await wait(for: "three forwarded envelopes") {
                    await upstream.recorder.requestCount >= 3
                }
                try await RelayFixture.waitUntilNothingIsQueued(in: relay)
                let received = try await RelayFixture.received(by: upstream.recorder)
                #expect(received.count == 3)
                #expect(received.allSatisfy { $0.envelope.header["dsn"] == .string(upstreamDSN) })
                #expect(
                    received.allSatisfy {
                        $0.headers["x-sentry-auth"]?.contains("sentry_key=\(RelayFixture.upstreamKey)") == true
                    })
                #expect(received.allSatisfy { $0.headers["x-sentry-auth"]?.contains(ServeFixture.publicKey) == false })
                // uncompressed: the upstream is on this machine
                #expect(received.allSatisfy { $0.headers["content-encoding"] == nil })
                let forwarded = try #require(received.first { $0.envelope.items.first?.type == "event" })
                #expect(forwarded.eventIDs == [id])
                #expect(forwarded.envelope.items.first?.payload == event)
                let attachment = try #require(forwarded.envelope.items.last)
                #expect(attachment.type == "attachment" && attachment.payload == Data([0, 1, 2, 0xFF]))
                #expect(attachment.headers["filename"] == "core.bin")
                #expect(attachment.headers["attachment_type"] == "event.minidump")
                #expect(attachment.headers["content_type"] == "application/octet-stream")
                #expect(
                    Set(received.compactMap { $0.envelope.items.first?.type }) == [
                        "event", "sessions", "client_report",
                    ])
                return try await relay.metrics()
            }

            // And the relay's log holds the event once, and /metrics counts what was forwarded
            let scan = await LogScan(files: try LogFile.all(in: logs), filter: EventFilter())
            #expect(scan.events == 1)
            let name = "127.0.0.1_\(upstream.port)_42"
            #expect(metrics[#"faultline_forward_delivered_total{upstream="\#(name)"}"#] == 3)
            #expect(metrics[#"faultline_forward_queue_envelopes{upstream="\#(name)"}"#] == 0)
            #expect(metrics[#"faultline_events_dropped_total{reason="duplicate"}"#] == 1)
        }
    }

    @Test func secretsInTheTextsOfEventsAndTransactionsAreFilteredOnTheWayUpstream() async throws {
        let logs = try ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        try await RecordingIngest.run { upstream in
            try await ServeFixture.run(logs: logs, forwarding: try RelayFixture.forwarding(to: upstream.dsn())) {
                relay in
                // Given an event and a transaction whose texts hold secrets where no key names them
                let id = RelayFixture.eventID(run: 5, 1)
                let event = Data(
                    #"{"event_id":"\#(id)","timestamp":"2026-11-23T09:00:00Z","message":"login failed for password=hunter2-relay","breadcrumbs":{"values":[{"message":"Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiJ9.c2lnbmF0dXJlX3JlbGF5"}]}}"#
                        .utf8)
                let transaction = Data(
                    #"{"type":"transaction","transaction":"GET /export","spans":[{"description":"GET https://api.test/export?refresh_token=rt-relay-7731"}]}"#
                        .utf8)
                let envelope = Envelope(
                    header: ["event_id": .string(id)],
                    items: [.init(type: "event", payload: event), .init(type: "transaction", payload: transaction)])

                // When an SDK sends it to the relay
                let (status, _) = try await relay.post(
                    "/api/1/envelope/", body: envelope.serialized(), headers: ServeFixture.auth)
                #expect(status == 200)

                // Then the upstream receives both with the secrets filtered and the rest of the texts readable
                try await wait(for: "the forwarded envelope") {
                    await upstream.recorder.requestCount >= 1
                }
                let received = try #require(try await RelayFixture.received(by: upstream.recorder).first)
                let forwarded = String(decoding: received.envelope.items.flatMap(\.payload), as: UTF8.self)
                for secret in ["hunter2-relay", "c2lnbmF0dXJlX3JlbGF5", "rt-relay-7731"] {
                    #expect(!forwarded.contains(secret), "\(secret) reached the upstream")
                }
                for readable in [
                    "login failed for password=[Filtered]", "Authorization: Bearer [Filtered]",
                    "refresh_token=[Filtered]",
                ] {
                    #expect(forwarded.contains(readable), "\(readable)")
                }
                #expect(received.envelope.items.map(\.type) == ["event", "transaction"])
            }
        }
    }

    @Test func withForwardOnlyNothingIsStoredLocallyAndEveryNewEnvelopeIsForwarded() async throws {
        let logs = try ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        try await RecordingIngest.run { upstream in
            let forwarding = try RelayFixture.forwarding(to: upstream.dsn(), storesLocally: false)
            try await ServeFixture.run(logs: logs, forwarding: forwarding) { relay in
                // When an SDK sends ten events, one of them again, and an item of a type no one knows
                let ids = (0..<10).map { RelayFixture.eventID(run: 2, $0) }
                let unknown = Envelope(header: [:], items: [.init(type: "hologram", payload: Data("{}".utf8))])
                let bodies = (ids + [ids[0]]).map { RelayFixture.eventEnvelope($0) } + [unknown.serialized()]
                for body in bodies {
                    let (status, _) = try await relay.post("/api/1/envelope/", body: body, headers: ServeFixture.auth)
                    #expect(status == 200)
                }

                // Then the upstream receives each once
                try await wait(for: "ten forwarded envelopes") {
                    await upstream.recorder.requestCount >= 10
                }
                try await RelayFixture.waitUntilNothingIsQueued(in: relay)
                let received = try await RelayFixture.received(by: upstream.recorder)
                #expect(received.count == 10)
                #expect(received.flatMap(\.eventIDs).sorted() == ids)
            }
        }

        // And the relay wrote no log, only its forward queue
        let files = try FileManager.default.contentsOfDirectory(atPath: logs.path)
        #expect(!files.contains { $0.hasSuffix(".jsonl") || $0.hasSuffix(".jsonl.gz") })
        #expect(files.contains(LogLayout.forwardQueuesName))
    }
}
