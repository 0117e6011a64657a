import ArgumentParser
import BenchmarkSupport
import Foundation

/// Gathers the results of one `scripts/bench` run into one JSON file with the machine it ran on, prints them as one
/// table, and compares them with an earlier run.
@main
struct BenchmarkReport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "benchmark-report",
        abstract: "Gather a run's benchmark results into run.json, print one table, compare with an earlier run.")

    @Option(help: "The run's folder, holding one <benchmark>.json per benchmark; run.json is written there.")
    var results: String

    @Option(help: "The `swift --version` line of the toolchain that built the benchmarks.")
    var swiftVersion = ""

    @Option(help: "The commit the benchmarks measured.")
    var commit = ""

    @Option(help: "An earlier run.json to compare with.")
    var compare: String?

    func run() throws {
        let folder = URL(fileURLWithPath: results)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".json") && $0 != RunRecord.fileName }.sorted()
        let decoder = JSONDecoder()
        let benchmarks = try names.flatMap {
            try decoder.decode([BenchmarkResult].self, from: Data(contentsOf: folder.appendingPathComponent($0)))
        }
        let record = RunRecord(
            date: Date(), commit: commit, machine: .current(swiftVersion: swiftVersion), benchmarks: benchmarks)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        try encoder.encode(record).write(to: folder.appendingPathComponent(RunRecord.fileName))
        let earlier = try compare.map { path -> RunRecord in
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return try decoder.decode(RunRecord.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        }
        print(record.table(comparedWith: earlier))
        print("written to \(folder.appendingPathComponent(RunRecord.fileName).path)")
    }
}
