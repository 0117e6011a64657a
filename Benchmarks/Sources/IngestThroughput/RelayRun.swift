import BenchmarkSupport
import FaultlineReporting
import FaultlineTestServer
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One run of wrk against `faultline serve --forward` in front of a second `faultline serve` on loopback, optionally
/// with the upstream stopped for an outage in the middle, and what arrived upstream once the relay's queue drained.
struct RelayRun {
    let wrk: WrkRun.Result
    /// The size of the envelope each request carried.
    let envelopeBytes: Int
    /// The seconds the upstream was down, 5 seconds into the run; 0 for none.
    let outageSeconds: Int
    /// Envelopes in the relay's forward queue when the upstream came back; `nil` without an outage.
    let queuedAtRestart: Int?
    /// From wrk's end to the relay's queue empty.
    let drainSeconds: Double
    /// Events stored upstream and in the relay's own log with the run's ids, and the distinct ids upstream.
    let storedUpstream: Int
    let storedUpstreamIDs: Int
    let storedLocally: Int
    /// The CPU the relay and the upstream used during the run and the drain, in seconds, when `/proc` could tell.
    let serverCPUSeconds: Double?

    /// Envelopes stored upstream per second, from wrk's first request until the relay's queue was empty.
    var endToEndRate: Double { Double(storedUpstream) / (wrk.seconds + drainSeconds) }

    /// The relay's and the upstream's CPU time per request answered, in microseconds.
    var serverCPUPerRequest: Double? { serverCPUSeconds.map { $0 / Double(max(1, wrk.answered)) * 1e6 } }

    /// Events answered 200 by the relay and not stored upstream, or stored twice, or missing from the relay's log,
    /// and requests left unanswered. Empty when the run checks out.
    var problems: [String] {
        var problems: [String] = []
        if wrk.sent != wrk.answered { problems.append("\(wrk.sent - wrk.answered) unanswered") }
        if storedUpstream < wrk.answered200 {
            problems.append("\(wrk.answered200 - storedUpstream) answered 200 and lost upstream")
        }
        if storedUpstreamIDs != storedUpstream {
            problems.append("\(storedUpstream - storedUpstreamIDs) stored upstream more than once")
        }
        if storedLocally != wrk.answered200 {
            problems.append("\(storedLocally) in the relay's log for \(wrk.answered200) answered 200")
        }
        return problems
    }

    /// The run in one line, as it is printed when it ends.
    var summary: String {
        String(format: "%.0f/s end to end, %.0f/s answered, ", endToEndRate, wrk.rate)
            + "p50 \(IngestRun.milliseconds(wrk.p50Microseconds)), p99 \(IngestRun.milliseconds(wrk.p99Microseconds)), "
            + String(format: "drained %.1f s after wrk, ", drainSeconds)
            + (queuedAtRestart.map { "\($0) queued when the upstream came back, " } ?? "")
            + "\(wrk.answered200) answered 200, \(storedUpstream) stored upstream, \(storedLocally) in the relay's log"
            + (problems.isEmpty ? ": checked" : ": " + problems.joined(separator: ", "))
    }

    /// Runs `load` against a relay in front of an upstream, both `faultline serve` at `faultline` with
    /// `serveArguments`, stopping the upstream for `outageSeconds` after 5 seconds when it is more than 0.
    static func measure(
        load: WrkRun, faultline: String, serveArguments: [String], outageSeconds: Int
    ) async throws -> RelayRun {
        // Every event of a run stays in both logs, rotated files included, so that each can be counted.
        let arguments = serveArguments + ["--max-log-bytes", String(4 << 30)]
        let upstream = try await IngestPeer.faultline(
            faultline, arguments: arguments + ["--port", String(try LoopbackPort.unused())])
        defer { upstream.stop() }
        // The queue holds a 30 s outage at the relay's full intake (5 500 envelopes/s on a journaled ext4, past the
        // default 200 000 envelopes).
        let relay = try await IngestPeer.faultline(
            faultline,
            arguments: arguments + [
                "--forward", upstream.dsn.description, "--forward-queue-max-envelopes", "1000000",
                "--forward-queue-max-bytes", String(4 << 30),
            ])
        defer { relay.stop() }
        let template = try EnvelopeTemplate(seed: 7, dsn: relay.dsn)
        let file = try template.write()
        defer { try? FileManager.default.removeItem(at: file) }
        let id = String(format: "%016llx", UInt64.random(in: 0...UInt64.max))
        let cpuBefore = (relay.cpuSeconds ?? 0) + (upstream.cpuSeconds ?? 0)
        let (path, port, auth) = (relay.envelopePath, relay.port, relay.auth)
        let wrk = Task.detached { try load.run(template: file, path: path, port: port, auth: auth, run: id) }
        var queuedAtRestart: Int?
        if outageSeconds > 0 {
            try await Task.sleep(for: .seconds(5))
            upstream.halt()
            try await Task.sleep(for: .seconds(outageSeconds))
            queuedAtRestart = await queueDepth(of: relay)
            try await upstream.restart()
        }
        let result = try await wrk.value
        let drainStart = ContinuousClock.now
        while await queueDepth(of: relay) != 0 {
            guard ContinuousClock.now - drainStart < .seconds(600) else {
                throw IngestPeer.Failure(description: "the relay's forward queue did not drain within 10 minutes")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        let drained = (ContinuousClock.now - drainStart).components
        let drainSeconds = Double(drained.seconds) + Double(drained.attoseconds) / 1e18
        let cpuAfter = (relay.cpuSeconds ?? 0) + (upstream.cpuSeconds ?? 0)
        let stored = try upstream.storedEventIDs().filter { $0.hasPrefix(id) }
        return RelayRun(
            wrk: result, envelopeBytes: template.bytes.count, outageSeconds: outageSeconds,
            queuedAtRestart: queuedAtRestart, drainSeconds: drainSeconds,
            storedUpstream: stored.count, storedUpstreamIDs: Set(stored).count,
            storedLocally: try relay.storedEventIDs().filter { $0.hasPrefix(id) }.count,
            serverCPUSeconds: cpuAfter > cpuBefore ? cpuAfter - cpuBefore : nil)
    }

    /// The envelopes waiting in `relay`'s forward queue, from its `/metrics`; `nil` when it did not answer.
    private static func queueDepth(of relay: IngestPeer) async -> Int? {
        let url = URL(string: "http://127.0.0.1:\(relay.port)/metrics")!
        guard let (data, _) = try? await URLSession.shared.data(from: url) else { return nil }
        let prefix = "faultline_forward_queue_envelopes{"
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix(prefix) }
        return line?.split(separator: " ").last.flatMap { Int($0) }
    }
}
