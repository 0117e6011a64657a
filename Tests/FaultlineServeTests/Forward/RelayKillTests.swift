import FaultlineLogReading
import FaultlineReporting
import FaultlineServe
import FaultlineTestServer
import Foundation
import LoopbackPorts
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `faultline serve --forward` killed with SIGKILL while it forwards, or while its upstream is down, then started again
/// on the same directories, forwards every envelope it answered 200 from its queue's segments, and sends again only
/// what was in flight or delivered since its cursor was last stored: delivery is at least once, and an upstream that
/// de-duplicates by event id stores each event once.
@Suite struct RelayKillTests {
    @Test func aSIGKILLWhileForwardingLosesNothingAnswered200() async throws {
        let logs = try ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        // Given an upstream that takes 50 ms to answer each envelope, and a relay in front of it
        let recorder = IngestRecorder()
        await recorder.answerAll(.init(status: 200, delay: .milliseconds(50)))
        try await RecordingIngest.run(recorder: recorder) { upstream in
            let arguments = ["--forward", upstream.dsn(publicKey: RelayFixture.upstreamKey)]
            let (relay, port) = try await ServeFixture.launch(logs: logs, arguments)
            defer { relay.kill() }

            // When four clients send events, each at most 100 a second and 100 in all, until the relay is killed, once
            // 60 envelopes have gone upstream. (Unbounded, they sent 2 000 to 3 000 before the kill, which the
            // restarted relay then forwarded at 50 ms each: the slower a loaded machine got, the more it had to
            // forward, and in one full run 159 were still queued after 60 s.)
            let stop = EnvelopeSender.Stop()
            defer { stop.set() }
            let senders = EnvelopeSender.start(
                4, toPort: port, firstRun: 0x500, pause: .milliseconds(10), limit: 100, until: stop)
            try await wait(for: "60 envelopes upstream") {
                await recorder.requestCount >= 60
            }
            relay.kill()
            try await relay.exit()
            stop.set()
            let accepted = await EnvelopeSender.accepted(by: senders)
            let beforeRestart = await recorder.requestCount

            // and the relay starts again on the same directories
            let (restarted, restartedPort) = try await ServeFixture.launch(logs: logs, arguments)
            defer { restarted.kill() }

            // Then every event answered 200 arrives upstream
            let sent = try await Self.eventsSent(
                onceAllOf: accepted, arriveAt: recorder, from: restartedPort)
            let duplicates = sent.count - Set(sent).count
            print(
                "relay SIGKILL: \(accepted.count) events answered 200, \(beforeRestart) envelopes upstream before the "
                    + "kill, \(sent.count) event sends in all, \(duplicates) sent twice")
            // 60 envelopes went upstream, each answered 200 unless its client's request was in flight at the kill
            #expect(accepted.count >= 56)
            // Only envelopes after the queue's stored cursor are sent twice: those in flight at the kill (at most the 8
            // concurrent requests) and those answered since the cursor was stored, 25 ms before at most (at most 8
            // more: each request takes 50 ms)
            #expect(duplicates <= 16)

            // And the relay's own log holds each accepted event once; after a clean stop, stats shows the queue empty
            restarted.terminate()
            try await restarted.exit()
            var stored: [String] = []
            var reader = LogReader()
            for file in try LogFile.all(in: logs) { reader.read(file) { stored.append($0.eventID) } }
            #expect(Set(accepted).isSubset(of: Set(stored)))
            #expect(stored.count == Set(stored).count)
            let stats =
                try JSONSerialization.jsonObject(
                    with: try await BuiltFaultline.run(["stats", "--json", "--log-dir", logs.path])) as? [String: Any]
            let queue = try #require((stats?["forward"] as? [[String: Any]])?.first)
            #expect(queue["upstream"] as? String == "127.0.0.1_\(upstream.port)_1")
            #expect(queue["envelopes"] as? Int == 0)
            #expect(((queue["delivery"] as? [String: Any])?["delivered"] as? Int ?? 0) > 0)
        }
    }

    @Test func aSIGKILLDuringAnOutageKeepsTheQueueAndForwardsEachEnvelopeOnce() async throws {
        let logs = try ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        // Given a relay whose upstream is down
        let closed = try ClosedPort()
        let arguments = ["--forward", "http://\(RelayFixture.upstreamKey)@127.0.0.1:\(closed.port)/1"]
        let (relay, port) = try await ServeFixture.launch(logs: logs, arguments)
        defer { relay.kill() }

        // When four clients send events until the relay is killed, once 400 wait in its queue
        let queue = logs.appendingPathComponent("forward/127.0.0.1_\(closed.port)_1", isDirectory: true)
        let stop = EnvelopeSender.Stop()
        defer { stop.set() }
        let senders = EnvelopeSender.start(4, toPort: port, firstRun: 0x504, until: stop)
        try await wait(for: "400 envelopes queued") {
            DeliveryBacklog.inOutbox(queue).envelopes >= 400
        }
        relay.kill()
        try await relay.exit()
        stop.set()
        let accepted = await EnvelopeSender.accepted(by: senders)

        // Then the queue's segments hold every envelope answered 200 (nothing was delivered, so its cursor is at the
        // start)
        #expect(DeliveryBacklog.inOutbox(queue).envelopes >= accepted.count)

        // and once the relay starts again with the upstream back, each arrives upstream, once
        let recorder = IngestRecorder()
        closed.release()
        try await RecordingIngest.run(port: closed.port, recorder: recorder) { _ in
            let (restarted, restartedPort) = try await ServeFixture.launch(logs: logs, arguments)
            defer { restarted.kill() }
            let sent = try await Self.eventsSent(
                onceAllOf: accepted, arriveAt: recorder, from: restartedPort)
            #expect(sent.count == Set(sent).count)
            restarted.terminate()
            try await restarted.exit()
        }

        // and stats says the upstream failed, and that it has recovered since, with the queue's count of now only
        let stats = String(decoding: try await BuiltFaultline.run(["stats", "--log-dir", logs.path]), as: UTF8.self)
        #expect(stats.contains(": 0 envelopes waiting"), "\(stats)")
        #expect(stats.contains("last failure: no response at "), "\(stats)")
        #expect(stats.contains("; recovered: forwarded since, the last at "), "\(stats)")
        #expect(!stats.contains("waiting to be sent"), "\(stats)")
    }

    /// Waits until every event of `accepted` arrived at `recorder` and was answered 200, and the relay on `port` has
    /// nothing left to forward (so nothing more will be sent); returns the ids of the events sent, in arrival order.
    private static func eventsSent(
        onceAllOf accepted: [String], arriveAt recorder: IngestRecorder, from port: Int
    ) async throws -> [String] {
        // Each request is read once, not at every check: reading them all again every 200 ms took the CPU the relay
        // and the recording ingest needed to forward them, in a loaded full run.
        var delivered: Set<String> = []
        var read = 0
        let arrived = try await eventually {
            let requests = await recorder.requests
            for request in requests[read...] where request.status == 200 {
                delivered.formUnion(try RelayFixture.received(request).eventIDs)
            }
            read = requests.count
            return Set(accepted).isSubset(of: delivered)
        }
        guard arrived else {
            let queued = try? await ServeFixture(logs: URL(fileURLWithPath: "/dev/null"), port: port).metrics()
                .filter { $0.key.hasPrefix("faultline_forward_") }
            throw TimedOut(
                description:
                    "\(Set(accepted).subtracting(delivered).count) of \(accepted.count) accepted events did not "
                    + "arrive upstream within \(patience) (\(read) requests received); the relay's forwarding metrics: "
                    + "\(queued.map { "\($0)" } ?? "unreadable")")
        }
        try await RelayFixture.waitUntilNothingIsQueued(
            in: ServeFixture(logs: URL(fileURLWithPath: "/dev/null"), port: port))
        return try await RelayFixture.received(by: recorder).flatMap(\.eventIDs)
    }
}
