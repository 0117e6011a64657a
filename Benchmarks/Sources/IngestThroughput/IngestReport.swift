import BenchmarkSupport
import Foundation

/// The timed rounds of ingest-throughput as a Markdown table and as a ``BenchmarkResult``: each side's median
/// envelopes per second (answered 200, per second of the run), its median p50 and p99 latency, what it stored against
/// what it answered 200, the median CPU time the server and wrk used per request, and `serve`'s ratio to Bugsink.
struct IngestReport {
    let runs: [IngestSide: [IngestRun]]
    let warmUp: [IngestRun]
    let threads: Int
    let connections: Int
    let seconds: Int
    let rounds: Int
    let envelopeBytes: Int

    static let target = "≥ 10000 envelopes/s, ≥ 250× Bugsink, every 200 stored once"

    private func rates(_ side: IngestSide) -> Samples { Samples((runs[side] ?? []).map(\.wrk.rate)) }

    private var ratio: Double { rates(.serve).median / rates(.bugsink).median }

    /// Every run, warm-up included, checks out, and neither ingest answered anything but 200.
    private var checked: Bool {
        let all = warmUp + runs.values.joined()
        return all.allSatisfy(\.problems.isEmpty) && all.allSatisfy { $0.wrk.otherAnswers.isEmpty }
    }

    private var met: Bool { rates(.serve).median >= 10_000 && ratio >= 250 && checked }

    var table: String {
        var lines = [
            """
            ingest-throughput: wrk \(threads) threads, \(connections) connections, \(seconds) s per run, \(rounds) \
            interleaved rounds after a warm-up; every request one uncompressed envelope of \(envelopeBytes) bytes (an \
            error event with exception, tags, user, request, contexts and 4 breadcrumbs) with a fresh event_id
            """,
            "| side | envelopes/s (median, min–max) | p50 | p99 | stored / answered 200 | not 200 | server CPU/request "
                + "| wrk CPU/request | ratio vs Bugsink |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        let bugsink = rates(.bugsink).median
        for side in [IngestSide.bugsink, .serve, .ceiling] {
            let sideRuns = runs[side] ?? []
            let rates = rates(side)
            let stored = sideRuns.reduce(0) { $0 + $1.stored }
            let answered200 = sideRuns.reduce(0) { $0 + $1.wrk.answered200 }
            let once = sideRuns.allSatisfy { $0.storedIDs == $0.stored } ? ", each once" : ", some twice"
            lines.append(
                "| \(side.name) | "
                    + String(format: "%.0f (%.0f–%.0f)", rates.median, rates.quantile(0), rates.quantile(1)) + " | "
                    + IngestRun.milliseconds(Samples(sideRuns.map(\.wrk.p50Microseconds)).median) + " | "
                    + IngestRun.milliseconds(Samples(sideRuns.map(\.wrk.p99Microseconds)).median) + " | "
                    + (side == .ceiling
                        ? "\(stored) (stores nothing) / \(answered200)" : "\(stored) / \(answered200)\(once)")
                    + " | \(Self.notAnswered200(sideRuns)) | "
                    + String(format: "%.0f µs | ", Samples(sideRuns.compactMap(\.serverCPUPerRequest)).median)
                    + String(format: "%.0f µs | ", Samples(sideRuns.map(\.generatorCPUPerRequest)).median)
                    + (side == .ceiling ? "—" : String(format: "%.0f×", rates.median / bugsink)) + " |")
        }
        let problems = (warmUp + runs.values.joined()).filter { !$0.problems.isEmpty }
        lines.append(
            "\nTarget \(Self.target): \(met ? "met" : "not met")"
                + String(format: " (%.0f envelopes/s, %.0f×", rates(.serve).median, ratio)
                + (checked ? ", every run checked)." : ", \(problems.count) runs with problems or answers not 200)."))
        return lines.joined(separator: "\n")
    }

    var result: BenchmarkResult {
        let serve = rates(.serve).median
        let bugsink = rates(.bugsink).median
        let p99 = Samples((runs[.serve] ?? []).map(\.wrk.p99Microseconds)).median
        return BenchmarkResult(
            name: "ingest-throughput", what: "ingest (faultline serve) from wrk, uncompressed envelopes",
            faultline: String(format: "%.0f envelopes/s, p99 ", serve) + IngestRun.milliseconds(p99),
            peer: String(format: "Bugsink %.0f envelopes/s", bugsink), value: serve, peerValue: bugsink,
            ratio: String(format: "%.0f×", ratio), target: Self.target, met: met,
            sides: [IngestSide.bugsink, .serve, .ceiling].map { side in
                let sideRuns = runs[side] ?? []
                var values = rates(side).values("envelopes_per_second")
                values["median_p50_ms"] = Samples(sideRuns.map(\.wrk.p50Microseconds)).median / 1000
                values["median_p99_ms"] = Samples(sideRuns.map(\.wrk.p99Microseconds)).median / 1000
                values["stored"] = Double(sideRuns.reduce(0) { $0 + $1.stored })
                values["answered_200"] = Double(sideRuns.reduce(0) { $0 + $1.wrk.answered200 })
                values["not_200"] = Double(sideRuns.reduce(0) { $0 + $1.wrk.answered - $1.wrk.answered200 })
                values["unanswered"] = Double(sideRuns.reduce(0) { $0 + $1.unanswered })
                values["median_server_cpu_us_per_request"] = Samples(sideRuns.compactMap(\.serverCPUPerRequest)).median
                values["median_wrk_cpu_us_per_request"] = Samples(sideRuns.map(\.generatorCPUPerRequest)).median
                return BenchmarkResult.Side(side.name, values)
            },
            parameters: [
                "generator": "wrk (Debian) with Benchmarks/peers/envelope.lua", "threads": "\(threads)",
                "connections": "\(connections)", "seconds per run": "\(seconds)", "rounds": "\(rounds)",
                "envelope bytes": "\(envelopeBytes)", "checked": "\(checked)",
            ])
    }

    /// What the runs answered other than 200, and left unanswered: `none`, or `429 ×12, 3 unanswered`.
    private static func notAnswered200(_ runs: [IngestRun]) -> String {
        var counts: [String: Int] = [:]
        for run in runs {
            counts.merge(run.wrk.otherAnswers, uniquingKeysWith: +)
        }
        let unanswered = runs.reduce(0) { $0 + $1.unanswered }
        let parts =
            counts.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }
            + (unanswered > 0 ? ["\(unanswered) unanswered"] : [])
        return parts.isEmpty ? "none" : parts.joined(separator: ", ")
    }
}
