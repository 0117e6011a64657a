import ArgumentParser
import BenchmarkSupport
import FaultlineReporting
import Foundation

/// `faultline serve`'s ingest throughput beside Bugsink's, driven by the same external load generator: wrk (Debian's
/// package) with `Benchmarks/peers/envelope.lua`, which posts the same uncompressed envelope with a fresh `event_id`
/// in every request. Each round runs wrk against a fresh `serve`, against Bugsink, and against `serve`'s
/// `GET /health` with the same requests (the generator's ceiling on this machine), in alternating order. After
/// each run, the events the ingest stored with that run's ids are read back: each answered 200 must be stored once.
///
/// With `--relay`, it measures `faultline serve --forward` instead: wrk posts to a relay that forwards to a second
/// `serve` on loopback, a run per round, then one more with the upstream down for `--outage` seconds; each run
/// ends when the relay's forward queue is empty, and every event answered 200 must be stored upstream once.
@main
struct IngestThroughput: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest-throughput",
        abstract: "Envelopes per second into faultline serve, beside Bugsink, from wrk.")

    @Option(help: "Seconds each run sends for; wrk waits for the last answers after that.")
    var seconds = 10

    @Option(help: "Timed rounds, after a warm-up round of a fifth of the seconds.")
    var rounds = 3

    @Option(help: "wrk threads.")
    var threads = 2

    @Option(help: "wrk connections, each with one request in flight.")
    var connections = 16

    @Option(help: "The faultline executable; by default the one built beside this benchmark.")
    var faultline: String?

    @Option(
        parsing: .unconditionalSingleValue,
        help: "An argument added to faultline serve's, such as --no-scrub-values to measure without value scrubbing.")
    var serveArgument: [String] = []

    @Flag(help: "Measure faultline serve --forward in front of a second faultline serve, instead of serve and Bugsink.")
    var relay = false

    @Option(help: "With --relay: one more run with the upstream down for this many seconds, 5 seconds in; 0 for none.")
    var outage = 30

    @Option(help: "Write the results as JSON to this file.")
    var json: String?

    func validate() throws {
        guard seconds >= 1, rounds >= 1, threads >= 1, connections >= threads, outage >= 0 else {
            throw ValidationError(
                "--seconds and --rounds are 1 or more, --outage 0 or more, and --connections at least --threads.")
        }
    }

    func run() async throws {
        guard Self.isOnPath("wrk") else {
            throw IngestPeer.Failure(
                description: "wrk is not on PATH: run scripts/bench, which installs it, or apt-get install wrk")
        }
        let executable =
            faultline
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("faultline").path
        if relay {
            try await measureRelay(faultline: executable)
            return
        }
        let bugsink = try await IngestPeer.bugsink()
        defer { bugsink.stop() }
        var runs: [IngestSide: [IngestRun]] = [:]
        var warmUp: [IngestRun] = []
        var envelopeBytes = 0
        for round in 0...rounds {
            let load = WrkRun(
                threads: threads, connections: connections, seconds: round == 0 ? max(1, seconds / 5) : seconds)
            for side in round.isMultiple(of: 2) ? IngestSide.allCases : IngestSide.allCases.reversed() {
                let run = try await measure(side, load: load, faultline: executable, bugsink: bugsink)
                envelopeBytes = run.envelopeBytes
                print("\(round == 0 ? "warm-up" : "round \(round)"), \(side.name): \(run.summary)")
                if round == 0 { warmUp.append(run) } else { runs[side, default: []].append(run) }
            }
        }
        let report = IngestReport(
            runs: runs, warmUp: warmUp, threads: threads, connections: connections, seconds: seconds,
            rounds: rounds, envelopeBytes: envelopeBytes)
        print()
        print(report.table)
        try BenchmarkResult.write([report.result], to: json)
    }

    /// Relay runs, each with fresh serves: one per round, then one through an upstream outage.
    private func measureRelay(faultline: String) async throws {
        var runs: [RelayRun] = []
        let load = WrkRun(threads: threads, connections: connections, seconds: seconds)
        for round in 1...rounds {
            let run = try await RelayRun.measure(
                load: load, faultline: faultline, serveArguments: serveArgument, outageSeconds: 0)
            print("relay round \(round): \(run.summary)")
            runs.append(run)
        }
        if outage > 0 {
            let through = WrkRun(threads: threads, connections: connections, seconds: max(seconds, outage + 10))
            let run = try await RelayRun.measure(
                load: through, faultline: faultline, serveArguments: serveArgument, outageSeconds: outage)
            print("relay, upstream down \(outage) s: \(run.summary)")
            runs.append(run)
        }
        let report = RelayReport(
            runs: runs, threads: threads, connections: connections, envelopeBytes: runs.first?.envelopeBytes ?? 0)
        print()
        print(report.table)
        try BenchmarkResult.write([report.result], to: json)
    }

    /// One run of wrk against `side`, and what the ingest stored with the run's event ids.
    private func measure(_ side: IngestSide, load: WrkRun, faultline: String, bugsink: IngestPeer) async throws
        -> IngestRun
    {
        let peer = side == .bugsink ? bugsink : try await IngestPeer.faultline(faultline, arguments: serveArgument)
        defer { if side != .bugsink { peer.stop() } }
        let template = try EnvelopeTemplate(seed: 7, dsn: peer.dsn)
        let file = try template.write()
        defer { try? FileManager.default.removeItem(at: file) }
        let id = String(format: "%016llx", UInt64.random(in: 0...UInt64.max))
        let serverCPU = peer.cpuSeconds
        let generatorCPU = ProcessCPU.waitedChildrenSeconds
        let result = try load.run(
            template: file, method: side == .ceiling ? "GET" : "POST",
            path: side == .ceiling ? "/health" : peer.envelopePath, port: peer.port, auth: peer.auth, run: id)
        let generatorSeconds = ProcessCPU.waitedChildrenSeconds - generatorCPU
        let serverSeconds = serverCPU.flatMap { before in peer.cpuSeconds.map { $0 - before } }
        let stored = try peer.storedEventIDs().filter { $0.hasPrefix(id) }
        return IngestRun(
            side: side, wrk: result, stored: stored.count, storedIDs: Set(stored).count,
            envelopeBytes: template.bytes.count, serverCPUSeconds: serverSeconds, generatorCPUSeconds: generatorSeconds)
    }

    private static func isOnPath(_ name: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(name)")
        }
    }
}
