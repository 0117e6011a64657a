import BenchmarkSupport
import Foundation

/// One run of every benchmark, as `run.json`: when, on what commit and machine, and what each measured.
struct RunRecord: Codable {
    static let fileName = "run.json"

    var date: Date
    var commit: String
    var machine: Machine
    var benchmarks: [BenchmarkResult]

    /// The README's table: one row per benchmark, Faultline beside its peer, the ratio and the target; with an
    /// earlier run, how Faultline's headline value changed.
    func table(comparedWith earlier: RunRecord?) -> String {
        var lines = [
            "Benchmarks on \(machine.description), commit \(commit)",
            "| benchmark | what | Faultline | peer, same work, same run | ratio | target | met |"
                + (earlier == nil ? "" : " change since \(earlier?.commit ?? "") |"),
            "|---|---|---|---|---|---|---|" + (earlier == nil ? "" : "---|"),
        ]
        for result in benchmarks {
            var row =
                "| \(result.name) | \(result.what) | \(result.faultline) | \(result.peer ?? "—") | "
                + "\(result.ratio ?? "—") | \(result.target) | \(result.met ? "yes" : "no") |"
            if let earlier {
                let before = earlier.benchmarks.first { $0.name == result.name }?.value
                row += before.map { String(format: " %+.1f%% |", (result.value / $0 - 1) * 100) } ?? " new |"
            }
            lines.append(row)
        }
        return lines.joined(separator: "\n")
    }
}

/// The machine a run measured.
struct Machine: Codable, CustomStringConvertible {
    var processor: String
    var cores: Int
    var memoryBytes: UInt64
    var system: String
    var swift: String

    static func current(swiftVersion: String) -> Machine {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let processor =
            cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }?
            .split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces) ?? "unknown processor"
        let release = (try? String(contentsOfFile: "/etc/os-release", encoding: .utf8)) ?? ""
        let system =
            release.split(separator: "\n").first { $0.hasPrefix("PRETTY_NAME=") }?
            .dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            ?? ProcessInfo.processInfo.operatingSystemVersionString
        return Machine(
            processor: processor, cores: ProcessInfo.processInfo.activeProcessorCount,
            memoryBytes: ProcessInfo.processInfo.physicalMemory, system: system, swift: swiftVersion)
    }

    var description: String {
        "\(system), \(processor), \(cores) cores, \(memoryBytes >> 30) GiB, \(swift)"
    }
}
