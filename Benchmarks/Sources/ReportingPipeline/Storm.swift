import ArgumentParser
import BenchmarkSupport
import FaultlineTestServer
import Foundation

/// What an error storm costs the app: 100 000 failures of 5 fingerprints captured as fast as the writer takes them by
/// a reporter sending to a loopback ingest over AsyncHTTPClient, without the fingerprint limit and with its default
/// (10 events a minute), sides alternating, each in a process of its own so that its peak memory and CPU are the
/// app's alone (the ingest runs in this process).
struct Storm: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storm", abstract: "CPU per event and peak memory in an error storm, with and without the limit.")

    @Option(help: "Rounds; each runs both sides.")
    var rounds = 3

    @Option(help: "Failures per storm.")
    var events = 100_000

    @Option(help: "Write the results as JSON to this file.")
    var json: String?

    func run() async throws {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).path
        let (rounds, events) = (rounds, events)
        let runs = try await RecordingIngest.run(recorder: IngestRecorder(keepsBodies: false)) { ingest in
            var runs: [Bool: [(StormRun.Result, peak: Int)]] = [:]
            for round in 0..<rounds {
                for limit in round.isMultiple(of: 2) ? [false, true] : [true, false] {
                    let arguments =
                        [executable, "storm-run", "--events", String(events), "--dsn", ingest.dsn()]
                        + (limit ? ["--limit"] : [])
                    let child = try await Self.run(arguments)
                    runs[limit, default: []].append(
                        (try JSONDecoder().decode(StormRun.Result.self, from: child.output), child.peakResidentBytes))
                }
            }
            return runs
        }
        print(
            """
            storm: \(rounds) rounds × \(events) failures of \(StormRun.routes.count) fingerprints (409s on \
            \(StormRun.routes.count) routes), captured as fast as the writer takes them, written to the log and sent \
            to a loopback ingest over AsyncHTTPClient, default queue and log caps; sides alternate, each in its own \
            process. CPU is the app process's, from the first capture until everything was written and delivered.
            | side | CPU µs/event (median) | min | max | peak RSS (median) | seconds | written | delivered | \
            suppressed | evicted unsent |
            |---|---|---|---|---|---|---|---|---|---|
            """)
        var sides: [BenchmarkResult.Side] = []
        var medians: [Bool: (cpu: Double, peak: Double)] = [:]
        for limit in [false, true] {
            guard let samples = runs[limit], let last = samples.last?.0 else { continue }
            let cpu = Samples(samples.map { $0.0.cpuSeconds / Double($0.0.events) * 1_000_000 })
            let peak = Samples(samples.map { Double($0.peak) })
            let seconds = Samples(samples.map(\.0.seconds))
            medians[limit] = (cpu.median, peak.median)
            let name = limit ? "fingerprint limit, 10 a minute (default)" : "no limit"
            print(
                "| \(name) | " + [0.5, 0, 1].map { String(format: "%.1f", cpu.quantile($0)) }.joined(separator: " | ")
                    + " | \(ProcessMemory.mebibytes(Int(peak.median))) | \(String(format: "%.1f", seconds.median)) | "
                    + "\(last.written) | \(last.delivered) | \(last.suppressed) | \(last.evicted) |")
            sides.append(
                .init(
                    name,
                    cpu.values("cpu_us_per_event").merging(peak.values("peak_rss_bytes")) { first, _ in first }
                        .merging([
                            "written": Double(last.written), "delivered": Double(last.delivered),
                            "suppressed": Double(last.suppressed), "carried": Double(last.carried),
                            "evicted": Double(last.evicted),
                        ]) { first, _ in first }))
        }
        guard let limited = medians[true], let unlimited = medians[false] else { return }
        let ratio = unlimited.cpu / limited.cpu
        print(
            String(
                format: "the limit: %.1f× less CPU per event, peak RSS %.2f× that without it", ratio,
                limited.peak / unlimited.peak))
        try BenchmarkResult.write(
            [
                BenchmarkResult(
                    name: "storm", what: "\(events) failures of 5 fingerprints, with the default fingerprint limit",
                    faultline: String(format: "%.1f µs CPU/event", limited.cpu),
                    peer: String(format: "no limit %.1f µs CPU/event", unlimited.cpu), value: limited.cpu,
                    peerValue: unlimited.cpu, ratio: String(format: "%.1f× less CPU", ratio),
                    target: "less CPU per event than without the limit", met: limited.cpu < unlimited.cpu,
                    sides: sides, parameters: ["rounds": "\(rounds)", "events": "\(events)", "fingerprints": "5"])
            ], to: json)
    }

    /// Runs a child on a thread of its own, so that waiting for it leaves the ingest's tasks their threads.
    private static func run(_ arguments: [String]) async throws -> ChildRun {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try ChildRun.run(arguments) }) }
        }
    }
}
