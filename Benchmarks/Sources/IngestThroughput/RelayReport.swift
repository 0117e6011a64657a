import BenchmarkSupport
import Foundation

/// The relay runs of ingest-throughput (`--relay`) as a Markdown table and as a ``BenchmarkResult``: for each run,
/// the envelopes stored upstream per second end to end, the relay's answers per second and latency, how long its
/// queue took to drain after wrk, and what arrived upstream against what the relay answered 200.
struct RelayReport {
    let runs: [RelayRun]
    let threads: Int
    let connections: Int
    let envelopeBytes: Int

    static let target = "≥ 5000 envelopes/s end to end, 0 lost through a 30 s upstream outage"

    /// The median end-to-end rate of the runs without an outage.
    private var rate: Double { Samples(runs.filter { $0.outageSeconds == 0 }.map(\.endToEndRate)).median }

    private var checked: Bool { runs.allSatisfy(\.problems.isEmpty) }

    private var outageChecked: Bool { runs.contains { $0.outageSeconds >= 30 && $0.problems.isEmpty } }

    private var met: Bool { rate >= 5000 && checked && outageChecked }

    var table: String {
        var lines = [
            """
            ingest-throughput --relay: wrk \(threads) threads, \(connections) connections to `faultline serve \
            --forward`, which forwards to a second `faultline serve` on 127.0.0.1; every request one uncompressed \
            envelope of \(envelopeBytes) bytes with a fresh event_id. End to end: events stored upstream per second, \
            from wrk's first request until the relay's queue is empty.
            """,
            "| run | upstream outage | end to end | answered 200/s | p50 | p99 | drain after wrk | queued at restart "
                + "| stored upstream / answered 200 | relay's log | CPU/request (both serves) |",
            "|---|---|---|---|---|---|---|---|---|---|---|",
        ]
        for (index, run) in runs.enumerated() {
            lines.append(
                "| \(index + 1) | \(run.outageSeconds > 0 ? "\(run.outageSeconds) s" : "none") | "
                    + String(format: "%.0f/s | %.0f/s | ", run.endToEndRate, run.wrk.rate)
                    + IngestRun.milliseconds(run.wrk.p50Microseconds) + " | "
                    + IngestRun.milliseconds(run.wrk.p99Microseconds) + " | "
                    + String(format: "%.1f s | ", run.drainSeconds)
                    + (run.queuedAtRestart.map(String.init) ?? "—") + " | "
                    + "\(run.storedUpstream) / \(run.wrk.answered200)"
                    + (run.storedUpstreamIDs == run.storedUpstream ? ", each once" : ", some twice") + " | "
                    + "\(run.storedLocally) | "
                    + (run.serverCPUPerRequest.map { String(format: "%.0f µs", $0) } ?? "unknown") + " |")
        }
        let problems = runs.filter { !$0.problems.isEmpty }.map { $0.problems.joined(separator: ", ") }
        lines.append(
            "\nTarget \(Self.target): \(met ? "met" : "not met")"
                + String(format: " (%.0f envelopes/s end to end", rate)
                + (outageChecked ? "" : ", no 30 s outage run checked out")
                + (problems.isEmpty ? ", every run checked)." : "; problems: \(problems.joined(separator: "; "))).")
        )
        return lines.joined(separator: "\n")
    }

    var result: BenchmarkResult {
        BenchmarkResult(
            name: "ingest-throughput/relay", what: "faultline serve --forward to a loopback faultline serve, from wrk",
            faultline: String(format: "%.0f envelopes/s end to end", rate), value: rate, target: Self.target,
            met: met,
            sides: runs.enumerated().map { index, run in
                BenchmarkResult.Side(
                    "run \(index + 1), outage \(run.outageSeconds) s",
                    [
                        "end_to_end_per_second": run.endToEndRate, "answered_200_per_second": run.wrk.rate,
                        "p50_ms": run.wrk.p50Microseconds / 1000, "p99_ms": run.wrk.p99Microseconds / 1000,
                        "drain_seconds": run.drainSeconds, "answered_200": Double(run.wrk.answered200),
                        "stored_upstream": Double(run.storedUpstream),
                        "stored_upstream_ids": Double(run.storedUpstreamIDs),
                        "stored_locally": Double(run.storedLocally),
                        "queued_at_restart": Double(run.queuedAtRestart ?? 0),
                    ])
            },
            parameters: [
                "generator": "wrk (Debian) with Benchmarks/peers/envelope.lua", "threads": "\(threads)",
                "connections": "\(connections)", "envelope bytes": "\(envelopeBytes)", "checked": "\(checked)",
            ])
    }
}
