import FaultlineLogReading
import FaultlineRecords
import FaultlineReporting
import Foundation
import TestSupport

/// A fresh directory for a reporter's local log, and what was written to it.
struct LogDirectory {
    private let directory: TemporaryDirectory

    /// A fresh, empty directory.
    init() throws {
        directory = try TemporaryDirectory("log")
    }

    var url: URL { directory.url }

    /// The events in the active log file, in order, once `reporter` has written what it captured.
    func events(writtenBy reporter: Reporter) async throws -> [SentryEvent] {
        await reporter.flush(timeout: patience)
        return try events()
    }

    /// The events in the active log file now, in order.
    func events() throws -> [SentryEvent] {
        let file = url.appendingPathComponent("events.jsonl")
        guard FileManager.default.fileExists(atPath: file.path) else { return [] }
        return try Data(contentsOf: file).split(separator: 0x0A).map {
            try SentryEvent(line: Data($0))
        }
    }

    /// The request outcomes in the active file of the request outcomes' log now, in order.
    func requestOutcomes() throws -> [RequestOutcomes] {
        let file = LogLayout(url).requests.appendingPathComponent("outcomes.jsonl")
        guard FileManager.default.fileExists(atPath: file.path) else { return [] }
        return try Data(contentsOf: file).split(separator: 0x0A).map { try RequestOutcomes(line: $0) }
    }

    /// The transactions in the active file of the transactions' log now, in order, as JSON objects.
    func transactions() throws -> [[String: JSONValue]] {
        let file = LogLayout(url).requests.appendingPathComponent("transactions.jsonl")
        guard FileManager.default.fileExists(atPath: file.path) else { return [] }
        return try Data(contentsOf: file).split(separator: 0x0A).map {
            try JSONDecoder().decode([String: JSONValue].self, from: Data($0))
        }
    }

    func remove() {
        directory.remove()
    }
}
