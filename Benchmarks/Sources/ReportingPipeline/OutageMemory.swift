import ArgumentParser
import BenchmarkSupport
import FaultlineReporting
import FaultlineTestServer
import Foundation

/// What a long outage costs: events captured while the endpoint is down, in a child process each, so that each run
/// has its own peak memory. A small run is the baseline; memory and disk that stay flat from it to a run 100 times
/// longer are bounded by the caps, not by the number of events.
struct OutageMemory: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outage-memory",
        abstract: "Peak memory and disk while the endpoint is down, for a baseline run and a long one.")

    @Option(help: "Events in the long run.")
    var events = 1_000_000

    @Option(help: "Events in the baseline run.")
    var baselineEvents = 10_000

    @Option(help: "Write the results as JSON to this file.")
    var json: String?

    @Option(
        help: """
            Run both outages with MALLOC_ARENA_MAX set to this, to tell memory the pipeline holds from free memory \
            glibc keeps in the arenas of the threads that allocated it.
            """)
    var mallocArenaMax: Int?

    func run() async throws {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0])
        var results: [OutageRun.Result] = []
        for count in [baselineEvents, events] {
            let process = Process()
            process.executableURL = executable
            process.arguments = ["outage-run", "--events", String(count)]
            if let mallocArenaMax {
                process.environment = ProcessInfo.processInfo.environment.merging(
                    ["MALLOC_ARENA_MAX": String(mallocArenaMax)]) { _, new in new }
            }
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw ExitCode(process.terminationStatus) }
            results.append(try JSONDecoder().decode(OutageRun.Result.self, from: data))
        }
        let baseline = results[0]
        print(
            """
            outage-memory: events captured with the endpoint down (connection refused), default limits: \
            log 64 MiB (the uploader sends from it), queue 1000\(mallocArenaMax.map { "; MALLOC_ARENA_MAX=\($0)" } ?? "")
            | events | seconds | peak RSS | log on disk | uploader's files | written to the log | waiting to be sent | \
            evicted unsent (cache_overflow) | peak RSS ratio to baseline |
            |---|---|---|---|---|---|---|---|---|
            """)
        for result in results {
            print(
                "| \(result.events) | \(String(format: "%.0f", result.seconds)) | "
                    + "\(ProcessMemory.mebibytes(result.peakResidentBytes)) | "
                    + "\(ProcessMemory.mebibytes(result.logBytes)) | \(ProcessMemory.mebibytes(result.outboxBytes)) | "
                    + "\(result.written) | \(result.waiting) | \(result.evicted) | "
                    + String(format: "%.2f", Double(result.peakResidentBytes) / Double(baseline.peakResidentBytes))
                    + " |")
        }
        try BenchmarkResult.write(
            [Self.result(baseline: baseline, long: results[1], mallocArenaMax: mallocArenaMax)], to: json)
    }

    /// Bounded means: the log within its default cap (the uploader's files, a cursor and statistics, add a few KB),
    /// every event written either waiting or counted as evicted, and peak memory within 1.2 times the baseline's.
    static func result(baseline: OutageRun.Result, long: OutageRun.Result, mallocArenaMax: Int?) -> BenchmarkResult {
        let memoryRatio = Double(long.peakResidentBytes) / Double(baseline.peakResidentBytes)
        let bounded =
            long.logBytes <= 64 << 20 && long.outboxBytes <= 64 << 10 && long.waiting + long.evicted == long.written
            && memoryRatio <= 1.2
        let values = { (run: OutageRun.Result) -> [String: Double] in
            [
                "events": Double(run.events), "seconds": run.seconds,
                "peak_rss_bytes": Double(run.peakResidentBytes), "log_bytes": Double(run.logBytes),
                "outbox_bytes": Double(run.outboxBytes), "waiting": Double(run.waiting),
                "written": Double(run.written), "evicted": Double(run.evicted),
            ]
        }
        return BenchmarkResult(
            name: "outage-memory",
            what: "outage of \(long.events) events, endpoint down"
                + (mallocArenaMax.map { ", MALLOC_ARENA_MAX=\($0)" } ?? ""),
            faultline:
                "peak RSS \(ProcessMemory.mebibytes(long.peakResidentBytes)), disk "
                + ProcessMemory.mebibytes(long.logBytes + long.outboxBytes),
            value: Double(long.peakResidentBytes),
            ratio: String(format: "%.2f× the peak RSS of %d events", memoryRatio, baseline.events),
            target: "bounded by configured caps", met: bounded,
            sides: [
                .init("\(baseline.events) events", values(baseline)), .init("\(long.events) events", values(long)),
            ],
            parameters: ["log cap": "64 MiB", "MALLOC_ARENA_MAX": mallocArenaMax.map(String.init) ?? "unset"])
    }
}

/// One run of ``OutageMemory``, in its own process: prints its ``Result`` as JSON.
struct OutageRun: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outage-run", abstract: "One outage run; prints its result as JSON.", shouldDisplay: false)

    struct Result: Codable {
        let events: Int
        let seconds: Double
        let peakResidentBytes: Int
        let logBytes: Int
        let outboxBytes: Int
        let written: Int
        let waiting: Int
        let evicted: Int
    }

    @Option(help: "Events to capture.")
    var events: Int

    func run() async throws {
        let logs = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-bench-\(UUID())")
        defer { try? FileManager.default.removeItem(at: logs) }
        let port = try await RecordingIngest.run { $0.port }
        let reporter = try await SampleFailure.reporter(
            logDirectory: logs, dsn: "http://0123456789abcdef0123456789abcdef@127.0.0.1:\(port)/1")
        let failure = SampleFailure()
        let clock = ContinuousClock()
        let start = clock.now
        for index in 0..<events {
            await failure.capture(with: reporter)
            // Captures wait for the writer to catch up, so that the queue never overflows: every event is written.
            if index % 250 == 249 { try await Self.waitUntilWritten(index + 1 - 250, by: reporter) }
        }
        try await Self.waitUntilWritten(events, by: reporter)
        let seconds = (clock.now - start).seconds
        let statistics = await reporter.statistics
        let outbox = reporter.options.outboxDirectory
        let waiting = await reporter.uploader?.pendingCount ?? 0
        let evicted =
            await reporter.uploader?.statistics.discarded
            .filter { $0.reason == .cacheOverflow }.map(\.quantity).reduce(0, +) ?? 0
        let outboxBytes = ProcessMemory.bytes(under: outbox)
        let result = Result(
            events: events, seconds: seconds, peakResidentBytes: ProcessMemory.peakResidentBytes,
            logBytes: ProcessMemory.bytes(under: logs) - outboxBytes, outboxBytes: outboxBytes,
            written: statistics.captured.values.reduce(0, +), waiting: waiting, evicted: evicted)
        await reporter.close(timeout: .zero)
        print(String(decoding: try JSONEncoder().encode(result), as: UTF8.self))
    }

    static func waitUntilWritten(_ count: Int, by reporter: Reporter) async throws {
        while await reporter.statistics.captured.values.reduce(0, +) < count {
            try await Task.sleep(for: .milliseconds(1))
        }
    }
}
