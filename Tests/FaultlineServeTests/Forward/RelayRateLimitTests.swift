import FaultlineLogReading
import FaultlineRecords
import FaultlineReporting
import FaultlineServe
import FaultlineTestServer
import FaultlineTriage
import Foundation
import TestSupport
import Testing

/// An upstream's `429` and `X-Sentry-Rate-Limits` hold back what `faultline serve --forward` sends of the limited
/// category until the limit ends; the local log keeps everything.
@Suite struct RelayRateLimitTests {
    @Test func anUpstreams429WithRateLimitsHoldsBackTheLimitedCategoryOnly() async throws {
        let logs = try ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        // Given an upstream that answers the first envelope 429, limiting errors for 15 seconds, then accepts all, and
        // a relay whose queues' timers run on a clock the test moves (on a loaded machine, a real 15 s could end
        // before the relay had sent what the limit does not hold back)
        let limit = 15
        let recorder = await Self.upstream(limitingErrorsFor: limit)
        let clock = ManualClock()
        try await RecordingIngest.run(recorder: recorder) { upstream in
            var forwarding = try RelayFixture.forwarding(to: upstream.dsn())
            forwarding.clock = ElapsedClock(clock)
            let metrics = try await ServeFixture.run(logs: logs, forwarding: forwarding) { relay in
                // When an SDK sends an event, then, once the upstream has refused it, another event and a session
                let first = RelayFixture.eventID(run: 3, 1)
                let second = RelayFixture.eventID(run: 3, 2)
                try await Self.send(first, through: relay, untilRefusedBy: upstream)
                let session = Envelope(
                    header: [:],
                    items: [.init(type: "session", payload: Data(#"{"sid":"7f6c","status":"ok","init":true}"#.utf8))])
                for body in [RelayFixture.eventEnvelope(second), session.serialized()] {
                    #expect(try await relay.post("/api/1/envelope/", body: body, headers: ServeFixture.auth).0 == 200)
                }

                // Then the session goes out while the limit holds, and the first event, which waits before it (the
                // queue sends oldest first), is not sent again meanwhile
                try await wait(for: "the session") {
                    let received = try await RelayFixture.received(by: recorder)
                    return received.contains { $0.envelope.items.first?.type == "session" }
                }
                let duringTheLimit = try await RelayFixture.received(by: recorder)
                #expect(duringTheLimit.filter { $0.eventIDs == [first] }.map(\.status) == [429])

                // When the limit's 15 seconds pass on the relay's clock
                clock.advance(by: .seconds(limit))

                // Then the first event goes again, and is accepted
                try await wait(for: "the first event's second attempt") {
                    try await RelayFixture.received(by: recorder).filter { $0.eventIDs == [first] }.count >= 2
                }
                try await RelayFixture.waitUntilNothingIsQueued(in: relay)
                let received = try await RelayFixture.received(by: recorder)
                #expect(received.filter { $0.eventIDs == [first] }.map(\.status) == [429, 200])
                // and the event sent during the limit is not forwarded: it is counted, and reported upstream
                #expect(!received.contains { $0.eventIDs.contains(second) })
                let reports = received.flatMap(\.envelope.items).filter { $0.type == "client_report" }
                let reported = reports.compactMap {
                    String(decoding: $0.payload, as: UTF8.self).contains(#""reason":"ratelimit_backoff""#) ? $0 : nil
                }
                #expect(!reported.isEmpty)
                return try await relay.metrics()
            }

            let name = "127.0.0.1_\(upstream.port)_1"
            #expect(
                metrics[
                    #"faultline_forward_dropped_total{upstream="\#(name)",reason="ratelimit_backoff",category="error"}"#
                ]
                    == 1)
            #expect((metrics[#"faultline_forward_retried_total{upstream="\#(name)"}"#] ?? 0) >= 1)
        }

        // And the relay's own log has both events
        let scan = await LogScan(files: try LogFile.all(in: logs), filter: EventFilter())
        #expect(scan.events == 2)
    }

    @Test func withForwardOnlyTheUpstreamsLimitIsPassedOnToTheSDK() async throws {
        let logs = try ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        // Given a forward-only relay whose upstream answers the first envelope 429, limiting errors for a minute
        let recorder = await Self.upstream(limitingErrorsFor: 60)
        try await RecordingIngest.run(recorder: recorder) { upstream in
            // (whose queue's clock stands still, so that the time the limit has left is exact)
            var forwarding = try RelayFixture.forwarding(to: upstream.dsn(), storesLocally: false)
            forwarding.clock = ElapsedClock(ManualClock())
            try await ServeFixture.run(logs: logs, forwarding: forwarding) { relay in
                try await Self.send(RelayFixture.eventID(run: 6, 1), through: relay, untilRefusedBy: upstream)

                // When the SDK sends another event, and a session
                let (status, response) = try await relay.send(
                    "/api/1/envelope/", body: RelayFixture.eventEnvelope(RelayFixture.eventID(run: 6, 2)),
                    headers: ServeFixture.auth)
                let session = Envelope(
                    header: [:],
                    items: [.init(type: "session", payload: Data(#"{"sid":"7f6d","status":"ok","init":true}"#.utf8))])
                let (sessionStatus, _) = try await relay.post(
                    "/api/1/envelope/", body: session.serialized(), headers: ServeFixture.auth)

                // Then the event is refused with the upstream's limit on errors, for the time it has left, so the SDK
                // keeps it and holds errors back; the session is queued
                #expect(status == 429)
                let limit = try #require(response.value(forHTTPHeaderField: "X-Sentry-Rate-Limits"))
                let seconds = try #require(Int(limit.prefix { $0 != ":" }))
                #expect(seconds == 61)  // the 60 s limit, rounded up
                #expect(limit.hasSuffix(":error:key"))
                #expect(response.value(forHTTPHeaderField: "Retry-After") == String(seconds))
                #expect(sessionStatus == 200)
                // and the event refused is not counted as dropped: the SDK still has it
                let dropped = try await relay.metrics().filter { $0.key.hasPrefix("faultline_forward_dropped_total") }
                #expect(dropped.values.reduce(0, +) == 0, "\(dropped)")
            }
        }
    }

    /// An upstream's recorder that answers the first envelope 429, limiting errors for `seconds`, then accepts all.
    static func upstream(limitingErrorsFor seconds: Int) async -> IngestRecorder {
        let recorder = IngestRecorder()
        await recorder.answerNext([
            .init(status: 429, headers: ["X-Sentry-Rate-Limits": "\(seconds):error:key", "Retry-After": "\(seconds)"])
        ])
        return recorder
    }

    /// Sends the event `id` through `relay`, answered 200, and returns once `upstream` refused it the first time.
    static func send(_ id: String, through relay: ServeFixture, untilRefusedBy upstream: RunningRecordingIngest)
        async throws
    {
        #expect(
            try await relay.post("/api/1/envelope/", body: RelayFixture.eventEnvelope(id), headers: ServeFixture.auth).0
                == 200)
        let retried = #"faultline_forward_retried_total{upstream="127.0.0.1_\#(upstream.port)_1"}"#
        try await wait(for: "the first attempt's 429") {
            try await relay.metrics()[retried] == 1
        }
    }
}
