import FaultlineLogReading
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
        // Given an upstream that answers the first envelope 429, limiting errors for 15 seconds, then accepts all (a
        // limit long enough that the session below is posted within it however loaded the machine: twice, a 5 s limit
        // ended before a loaded CI machine had posted it)
        let limit = 15
        let recorder = await Self.upstream(limitingErrorsFor: limit)
        try await RecordingIngest.run(recorder: recorder) { upstream in
            let metrics = try await ServeFixture.run(
                logs: logs, forwarding: try RelayFixture.forwarding(to: upstream.dsn())
            ) { relay in
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

                // Then the session goes out within the limit, the first event again only after the limit
                try await wait(for: "the first event's second attempt") {
                    try await RelayFixture.received(by: recorder).filter { $0.eventIDs == [first] }.count >= 2
                }
                try await RelayFixture.waitUntilNothingIsQueued(in: relay)
                let received = try await RelayFixture.received(by: recorder)
                let attempts = received.filter { $0.eventIDs == [first] }
                #expect(attempts.map(\.status) == [429, 200])
                #expect(attempts[1].receivedAt - attempts[0].receivedAt >= .seconds(limit))
                // (a relay that held every category back would send the session only once the limit ended; how soon
                // within the limit it goes out depends on the machine's load, so the test does not bound it further)
                let sessionSent = try #require(received.first { $0.envelope.items.first?.type == "session" })
                // (on failure, what the upstream received and when says which category was held back, and the
                // relay's counts whether attempts failed without reaching it)
                let timeline = received.map {
                    "\($0.envelope.items.map(\.type)) \($0.status) at +\($0.receivedAt - attempts[0].receivedAt)"
                }
                let counts = try await relay.metrics().filter { $0.key.hasPrefix("faultline_forward") }
                #expect(sessionSent.receivedAt < attempts[0].receivedAt + .seconds(limit), "\(timeline) \(counts)")
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
            let forwarding = try RelayFixture.forwarding(to: upstream.dsn(), storesLocally: false)
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
                #expect((55...61).contains(seconds))
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
