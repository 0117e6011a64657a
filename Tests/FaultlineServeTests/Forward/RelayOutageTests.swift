import FaultlineLogReading
import FaultlineReporting
import FaultlineServe
import FaultlineTriage
import Foundation
import TestSupport
import Testing

/// What `faultline serve --forward` answered 200 survives an upstream that goes away for 30 seconds: it waits in the
/// forward queue and arrives once the upstream is back.
@Suite struct RelayOutageTests {
    @Test func aThirtySecondUpstreamOutageLosesNothing() async throws {
        let upstreamLogs = try ServeFixture.logDirectory()
        let relayLogs = try ServeFixture.logDirectory()
        defer {
            try? FileManager.default.removeItem(at: upstreamLogs)
            try? FileManager.default.removeItem(at: relayLogs)
        }
        // Given an upstream `faultline serve`, and a relay in front of it
        var upstreamSettings = IngestConfiguration(logDirectory: upstreamLogs, publicKey: RelayFixture.upstreamKey)
        upstreamSettings.port = 0
        let upstream = try await RunningIngest(upstreamSettings)
        let ids = (0..<300).map { RelayFixture.eventID(run: 4, $0) }
        let metrics = try await ServeFixture.run(
            logs: relayLogs, forwarding: try RelayFixture.forwarding(to: upstream.dsn)
        ) { relay in
            // When an SDK sends 100 events, the upstream goes down for 30 seconds, and the SDK sends 200 more
            for id in ids[..<100] { try await Self.send(id, to: relay) }
            try await upstream.stop()
            let outage = ContinuousClock.now
            for id in ids[100...] { try await Self.send(id, to: relay) }
            try await Task.sleep(until: outage + .seconds(30))
            try await upstream.restart()

            // Then every event arrives once the upstream is back
            try await wait(for: "all 300 events upstream") {
                try await relay.metrics()[
                    #"faultline_forward_queue_envelopes{upstream="127.0.0.1_\#(upstream.port)_1"}"#] == 0
            }
            return try await relay.metrics()
        }
        try await upstream.stop()

        let received = await LogScan(files: try LogFile.all(in: upstreamLogs), filter: EventFilter())
        var stored: [String] = []
        var reader = LogReader()
        for file in try LogFile.all(in: upstreamLogs) { reader.read(file) { stored.append($0.eventID) } }
        #expect(Set(stored) == Set(ids))
        #expect(received.events == 300)
        let name = "127.0.0.1_\(upstream.port)_1"
        #expect((metrics[#"faultline_forward_retried_total{upstream="\#(name)"}"#] ?? 0) >= 1)
        #expect(!metrics.keys.contains { $0.hasPrefix("faultline_forward_dropped_total") })
    }

    /// Sends the event `id` to `relay` until it is answered 200, as an SDK sends again what a loaded server did not
    /// answer (serve stores an event id once).
    private static func send(_ id: String, to relay: ServeFixture) async throws {
        try await wait(for: "event \(id) answered 200") {
            let answer = try? await relay.post(
                "/api/1/envelope/", body: RelayFixture.eventEnvelope(id), headers: ServeFixture.auth)
            return answer?.0 == 200
        }
    }
}
