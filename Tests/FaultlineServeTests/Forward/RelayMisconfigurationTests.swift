import FaultlineRecords
import FaultlineReporting
import FaultlineServe
import FaultlineTestServer
import Foundation
import LoopbackPorts
import Synchronization
import TestSupport
import Testing

/// A relay whose upstream refuses its DSN (a wrong key or project) drops nothing: it keeps the queue, says so on its
/// output within seconds, and forwards everything once it is started with the right DSN.
@Suite struct RelayMisconfigurationTests {
    @Test func anUpstreamThatRefusesTheRelaysKeyHoldsTheQueueUntilTheDSNIsCorrected() async throws {
        let logs = try ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        let ids = (1...3).map { RelayFixture.eventID(run: 0x31, $0) }
        let recorder = IngestRecorder()
        try await RecordingIngest.run(recorder: recorder) { upstream in
            // Given an upstream that refuses the key the relay was started with, as Sentry does
            await recorder.answerAll(.init(status: 403, headers: ["X-Sentry-Error": "unknown sentry_key"]))
            let wrong = try RelayFixture.forwarding(to: upstream.dsn(publicKey: String(repeating: "0", count: 32)))
            let warnings = Mutex<[String]>([])

            // When SDKs send three events through it
            try await ServeFixture.run(
                logs: logs, forwarding: wrong, warnings: { line in warnings.withLock { $0.append(line) } }
            ) { relay in
                for id in ids {
                    #expect(
                        try await relay.post(
                            "/api/1/envelope/", body: RelayFixture.eventEnvelope(id), headers: ServeFixture.auth
                        ).0
                            == 200)
                }

                // Then it says on its output that the upstream refuses its DSN, with the upstream's reason
                try await wait(for: "a warning about the refused DSN") {
                    warnings.withLock { $0.contains { $0.contains("refuses the relay's DSN") } }
                }
                let warning = try #require(warnings.withLock { $0.first })
                #expect(warning.contains("403 unknown sentry_key"), "\(warning)")
                #expect(warning.contains("127.0.0.1_\(upstream.port)_1"), "\(warning)")
                // and keeps every event queued, dropping none, however often the upstream refuses them
                try await wait(for: "the upstream to refuse each event") {
                    Set(try await RelayFixture.received(by: recorder).flatMap(\.eventIDs)) == Set(ids)
                }
                let metrics = try await relay.metrics()
                #expect(
                    metrics.filter { $0.key.hasPrefix("faultline_forward_dropped_total") }.values.allSatisfy { $0 == 0 }
                )
                #expect(metrics["faultline_forward_queue_envelopes{upstream=\"127.0.0.1_\(upstream.port)_1\"}"] == 3)
            }

            // and `faultline stats` shows the queue and why it waits
            let stats = try await BuiltFaultline.run(["stats", "--log-dir", logs.path])
            let text = String(decoding: stats, as: UTF8.self)
            #expect(text.contains("forward queue 127.0.0.1_\(upstream.port)_1: 3 envelopes waiting"), "\(text)")
            #expect(text.contains(" bytes, the oldest received "), "\(text)")
            #expect(text.contains("last failure: 403 unknown sentry_key at "), "\(text)")
            // and what serve received
            #expect(text.contains("serve: 3 requests answered (200: 3), 3 events stored"), "\(text)")
            #expect(text.contains("the endpoint refused the DSN"), "\(text)")
            // without the app-side lines of a reporter's directory, which do not apply to a relay
            #expect(!text.contains("outbox:") && !text.contains("delivered "), "\(text)")

            // And once the relay is started again with the right key, every event goes upstream with it
            await recorder.answerAll(.init(status: 200))
            let refusedSoFar = await recorder.requestCount
            let right = try RelayFixture.forwarding(to: upstream.dsn(publicKey: RelayFixture.upstreamKey))
            let warningsAfter = Mutex<[String]>([])
            try await ServeFixture.run(
                logs: logs, forwarding: right, warnings: { line in warningsAfter.withLock { $0.append(line) } }
            ) { relay in
                try await RelayFixture.waitUntilNothingIsQueued(in: relay)
            }
            let accepted = try await RelayFixture.received(by: recorder).dropFirst(refusedSoFar)
            #expect(Set(accepted.flatMap(\.eventIDs)) == Set(ids))
            #expect(accepted.allSatisfy { $0.status == 200 })
            #expect(accepted.allSatisfy { $0.headers["x-sentry-auth"]?.contains(RelayFixture.upstreamKey) == true })
            // (the refusal the earlier run met is not reported again)
            #expect(warningsAfter.withLock { $0 }.isEmpty)
        }
    }

    @Test func aQueueLeftByAnEarlierUpstreamIsNamedAtStartAndDrainedToTheNewOneOnRequest() async throws {
        let logs = try ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        let ids = (1...3).map { RelayFixture.eventID(run: 0x32, $0) }
        let oldRecorder = IngestRecorder()
        let newRecorder = IngestRecorder()
        try await RecordingIngest.run(recorder: oldRecorder) { old in
            try await RecordingIngest.run(recorder: newRecorder) { new in
                // Given a relay that queued three events for an upstream that was away
                await oldRecorder.answerAll(.init(status: 503))
                let oldQueue = "127.0.0.1_\(old.port)_1"
                try await ServeFixture.run(
                    logs: logs,
                    forwarding: try RelayFixture.forwarding(to: old.dsn(publicKey: RelayFixture.upstreamKey))
                ) { relay in
                    for id in ids {
                        let status = try await relay.post(
                            "/api/1/envelope/", body: RelayFixture.eventEnvelope(id), headers: ServeFixture.auth
                        ).0
                        #expect(status == 200)
                    }
                    let queued = try await relay.metrics()[
                        "faultline_forward_queue_envelopes{upstream=\"\(oldQueue)\"}"]
                    #expect(queued == 3)
                }
                let newForwarding = try RelayFixture.forwarding(to: new.dsn(publicKey: RelayFixture.upstreamKey))

                // When it is started with --forward to another upstream
                let warnings = Mutex<[String]>([])
                let later = RelayFixture.eventID(run: 0x32, 4)
                try await ServeFixture.run(
                    logs: logs, forwarding: newForwarding, warnings: { line in warnings.withLock { $0.append(line) } }
                ) { relay in
                    // Then it names the stranded queue at start and says how to drain it
                    let warning = try #require(warnings.withLock { $0.first })
                    #expect(warning.contains("the forward queue \(oldQueue) holds 3 envelopes"), "\(warning)")
                    #expect(warning.contains("--drain-stranded-queues"), "\(warning)")
                    // while it forwards only what it receives now
                    let status = try await relay.post(
                        "/api/1/envelope/", body: RelayFixture.eventEnvelope(later), headers: ServeFixture.auth
                    ).0
                    #expect(status == 200)
                    try await RelayFixture.waitUntilNothingIsQueued(in: relay)
                }
                #expect(try await RelayFixture.received(by: newRecorder).flatMap(\.eventIDs) == [later])

                // And started with --drain-stranded-queues, it forwards the three to the new upstream, with its key,
                // and a fourth an earlier version left in the queue as a file of its own
                let legacy = RelayFixture.eventID(run: 0x32, 5)
                let folder = LogLayout(logs).forwardQueues.appendingPathComponent(oldQueue)
                try RelayFixture.eventEnvelope(legacy).write(to: folder.appendingPathComponent("legacy.envelope"))
                let drained = Mutex<[String]>([])
                var draining = newForwarding
                draining.drainsStrandedQueues = true
                try await ServeFixture.run(
                    logs: logs, forwarding: draining, warnings: { line in drained.withLock { $0.append(line) } }
                ) { relay in
                    try await RelayFixture.waitUntilNothingIsQueued(in: relay)
                }
                let output = drained.withLock { $0 }
                #expect(
                    output == ["forwarding 4 envelopes of the stranded queue \(oldQueue) to 127.0.0.1_\(new.port)_1"])
                let received = try await RelayFixture.received(by: newRecorder).dropFirst()
                #expect(received.flatMap(\.eventIDs).sorted() == (ids + [legacy]).sorted())
                #expect(received.allSatisfy { $0.headers["x-sentry-auth"]?.contains(RelayFixture.upstreamKey) == true })
                #expect(
                    received.allSatisfy { $0.envelope.header["dsn"]?.stringValue?.contains(":\(new.port)/") == true })
                // and the old queue is gone
                #expect(!FileManager.default.fileExists(atPath: folder.path))
            }
        }
    }

    @Test func atStartServeSaysWhatEachUpstreamAnsweredToACheck() async throws {
        let logs = try ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        let accepting = IngestRecorder()
        let refusing = IngestRecorder()
        let away = try ClosedPort()
        try await RecordingIngest.run(recorder: accepting) { good in
            try await RecordingIngest.run(recorder: refusing) { wrong in
                // Given a relay whose routes go to an upstream that accepts its DSN, one that refuses its key, and one
                // where nothing listens
                await refusing.answerAll(.init(status: 403, headers: ["X-Sentry-Error": "unknown sentry_key"]))
                let upstreams = [
                    good.dsn(publicKey: RelayFixture.upstreamKey),
                    wrong.dsn(publicKey: String(repeating: "0", count: 32)),
                    "http://\(RelayFixture.upstreamKey)@127.0.0.1:\(away.port)/1",
                ]
                var forwarding = ForwardConfiguration(
                    routes: try upstreams.enumerated().map { index, upstream in
                        ForwardRoute(
                            projectID: String(index + 1), publicKey: ServeFixture.publicKey, upstream: try DSN(upstream)
                        )
                    })
                forwarding.checksUpstreams = true
                let warnings = Mutex<[String]>([])

                // When it starts
                try await ServeFixture.run(
                    logs: logs, forwarding: forwarding, warnings: { line in warnings.withLock { $0.append(line) } }
                ) { _ in
                    // Then it says, for each upstream, what the check found
                    try await wait(for: "a word on each of the three upstreams") { warnings.withLock { $0.count >= 3 } }
                }
                let said = warnings.withLock { $0 }
                let byUpstream = { (port: Int) in said.first { $0.contains("127.0.0.1_\(port)_1") } ?? "" }
                #expect(byUpstream(good.port).contains("accepts the relay's DSN"), "\(said)")
                #expect(byUpstream(wrong.port).contains("refuses the relay's DSN"), "\(said)")
                #expect(byUpstream(wrong.port).contains("(403 unknown sentry_key)"), "\(said)")
                #expect(byUpstream(away.port).contains("did not answer a check"), "\(said)")
                // with what each that answered received: checks that carry the relay's key for it and no event
                let checks = try await RelayFixture.received(by: accepting)
                #expect(!checks.isEmpty)
                #expect(checks.allSatisfy { $0.envelope.items.map(\.type) == ["client_report"] })
                #expect(checks.allSatisfy { $0.headers["x-sentry-auth"]?.contains(RelayFixture.upstreamKey) == true })
                #expect(try await !RelayFixture.received(by: refusing).isEmpty)
            }
        }
    }
}
