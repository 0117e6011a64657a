import ArgumentParser
import BenchmarkSupport
import FaultlineLogReading
import FaultlineReporting
import Foundation

/// One side of ``Storm``, in its own process so that its peak memory is its own: a storm of failures of a few
/// fingerprints captured by a reporter sending to `dsn` over AsyncHTTPClient, with or without the fingerprint limit;
/// prints its ``Result`` as JSON.
struct StormRun: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storm-run", abstract: "One side of the storm; prints its result as JSON.", shouldDisplay: false)

    struct Result: Codable {
        let events: Int
        /// Events the reporter kept (given an id), wrote to its log, and delivered.
        let kept: Int
        let written: Int
        let delivered: Int
        /// Events the fingerprint limit suppressed, and those carried on kept events.
        let suppressed: Int
        let carried: Int
        /// Events the log's cap evicted before they were sent.
        let evicted: Int
        /// From the first capture until everything was written and delivered.
        let seconds: Double
        let cpuSeconds: Double
    }

    /// The routes failing in the storm, one fingerprint each.
    static let routes = ["/v1/boletos", "/v1/payments", "/v1/travels", "/v1/users/{id}", "/v1/wallet"]

    @Option(help: "Failures to capture.")
    var events = 100_000

    @Option(help: "Fingerprints they spread over, round robin (at most 5).")
    var fingerprints = 5

    @Option(help: "The ingest's DSN.")
    var dsn: String

    @Flag(help: "Capture with the default fingerprint limit (10 events a minute).")
    var limit = false

    func run() async throws {
        let logs = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-bench-\(UUID())")
        defer { try? FileManager.default.removeItem(at: logs) }
        let reporter = try await SampleFailure.reporter(
            logDirectory: logs, dsn: dsn, transport: ServerTransport.make(),
            fingerprintLimit: limit ? Reporter.FingerprintLimit() : nil)
        let failures = Self.routes.prefix(fingerprints).map(SampleFailure.init(route:))
        let cpuBefore = ProcessCPU.ownSeconds
        let start = ContinuousClock.now
        var kept = 0
        for index in 0..<events {
            if await failures[index % failures.count].capture(with: reporter) != nil { kept += 1 }
            // Captures wait for the writer to catch up, so that the queue never overflows: every kept event is
            // written, as in outage-memory.
            if index % 250 == 249 { try await OutageRun.waitUntilWritten(kept - 250, by: reporter) }
        }
        try await OutageRun.waitUntilWritten(kept, by: reporter)
        guard await reporter.flush(timeout: .seconds(600)) else {
            throw CleanExit.message("the reporter did not deliver within 10 minutes")
        }
        let seconds = (ContinuousClock.now - start).seconds
        let cpuSeconds = ProcessCPU.ownSeconds - cpuBefore
        let statistics = await reporter.statistics
        let delivery = await reporter.uploader?.statistics
        // Only kept events carry counts; without the limit, reading 100 000 events back would take longer than the run.
        let carried = limit ? try Self.carriedCount(in: logs.appendingPathComponent("events.jsonl")) : 0
        let result = Result(
            events: events, kept: kept, written: statistics.captured.values.reduce(0, +),
            delivered: delivery?.delivered ?? 0, suppressed: statistics.suppressedByFingerprintLimit,
            carried: carried,
            evicted: delivery?.discarded.filter { $0.reason == .cacheOverflow }.map(\.quantity).reduce(0, +) ?? 0,
            seconds: seconds, cpuSeconds: cpuSeconds)
        await reporter.close(timeout: .zero)
        print(String(decoding: try JSONEncoder().encode(result), as: UTF8.self))
    }

    /// The suppressed events the log's events carry, in all.
    static func carriedCount(in log: URL) throws -> Int {
        try Data(contentsOf: log).split(separator: UInt8(ascii: "\n")).reduce(0) { total, line in
            let event = try SentryEvent(line: line)
            return total + (event.tags[Reporter.FingerprintLimit.suppressedCountTag].flatMap { Int($0) } ?? 0)
        }
    }
}
