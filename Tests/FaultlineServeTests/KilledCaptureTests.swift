import FaultlineRecords
import FaultlineReporting
import FaultlineTriage
import Foundation
import TestSupport
import Testing

/// An app killed with SIGKILL while it captures loses none of the events and transactions it had written to its logs:
/// a child process captures against a real `faultline serve` on loopback, is killed at random moments and started
/// again on the same directory, and in the end serve holds every event and transaction that was in the child's logs,
/// once, and nothing else.
@Suite(.serialized) struct KilledCaptureTests {
    static let kills = 20

    @Test func everyEventInTheLogWhenTheAppWasKilledIsDeliveredOnceAndNothingHalfWrittenIsSent() async throws {
        let temporary = try TemporaryDirectory("kill")
        defer { temporary.remove() }
        let work = temporary.url
        let appLogs = work.appendingPathComponent("app")
        let serveLogs = work.appendingPathComponent("serve")

        let (durable, durableTransactions, cutOff, duplicates) = try await ServeFixture.run(logs: serveLogs) {
            ingest in
            // Given an app capturing against serve, killed 20 times at random moments and started again
            var durable: Set<String> = []
            var durableTransactions: Set<String> = []
            var cutOff = 0
            for _ in 0..<Self.kills {
                let child = try await CaptureLoop.start(logs: appLogs, dsn: ingest.dsn)
                try await Task.sleep(for: .milliseconds(Int.random(in: 100...700)))
                child.kill()
                #expect(try await child.exit().reason == .uncaughtSignal)
                // What the log holds now was written before the kill: every whole line is an event the app must send.
                let lines = try await LogLines.read(in: appLogs)
                durable.formUnion(lines.eventIDs)
                let transactions = try await LogLines.read(in: appLogs, of: .transactions)
                durableTransactions.formUnion(transactions.eventIDs)
                cutOff += lines.cutShort + transactions.cutShort
            }
            // When it starts once more and sends what the earlier runs left; a run that gives up after its 60 s is
            // started again while each run delivers more, as an app sends the rest at its next start (on a loaded
            // machine one run did not send 20 000 events in 60 s)
            var said = try await CaptureLoop.flush(logs: appLogs, dsn: ingest.dsn)
            var delivered = try await LogLines.read(in: serveLogs).eventIDs.count
            while said == "timed out" {
                said = try await CaptureLoop.flush(logs: appLogs, dsn: ingest.dsn)
                let now = try await LogLines.read(in: serveLogs).eventIDs.count
                guard now > delivered else { break }
                delivered = now
            }
            #expect(said == "flushed")
            let metrics = try await ingest.metrics()
            return (
                durable, durableTransactions, cutOff,
                metrics[#"faultline_events_dropped_total{reason="duplicate"}"#] ?? 0
            )
        }

        // Then serve stored every event that was in the app's log, each once, and nothing else
        let stored = try await LogLines.read(in: serveLogs)
        #expect(durable.count > Self.kills * 100, "too few events were written to learn anything")
        #expect(stored.cutShort == 0)
        #expect(stored.unparsable == 0)
        #expect(Set(stored.eventIDs).count == stored.eventIDs.count)
        let lost = durable.subtracting(stored.eventIDs)
        #expect(lost.isEmpty, "\(lost.count) of \(durable.count) events in the app's log were never delivered")
        let foreign = Set(stored.eventIDs).subtracting(durable)
        #expect(foreign.isEmpty, "serve stored \(foreign.count) events that were never whole in the app's log")
        // and so for the transactions, sent from their own log
        let storedTransactions = try await LogLines.read(in: serveLogs, of: .transactions)
        #expect(durableTransactions.count > Self.kills, "too few transactions were written to learn anything")
        #expect(storedTransactions.unparsable == 0)
        #expect(Set(storedTransactions.eventIDs).count == storedTransactions.eventIDs.count)
        let lostTransactions = durableTransactions.subtracting(storedTransactions.eventIDs)
        #expect(
            lostTransactions.isEmpty, "\(lostTransactions.count) transactions in the app's log were never delivered")
        #expect(Set(storedTransactions.eventIDs).isSubset(of: durableTransactions))
        // and the app's log stays readable: a line a kill cut short is cut off when the log opens again
        let summary = try await BuiltFaultline.run(["summary", "--log-dir", appLogs.path, "--json"])
        let counts = try #require(try JSONSerialization.jsonObject(with: summary) as? [String: Any])
        #expect(counts["event_count"] as? Int == durable.count)
        #expect(try await LogLines.read(in: appLogs).cutShort == 0)
        // Delivery is at least once: a kill between a delivery and the cursor's next write sends those events again,
        // and serve counts them as duplicates.
        print(
            "kill test: \(durable.count) events and \(durableTransactions.count) transactions written over "
                + "\(Self.kills) kills, \(cutOff) lines cut short by a kill, "
                + "\(duplicates) sent again after a kill (deduplicated by serve)")
    }
}

/// The `CaptureLoop` executable built beside the test runner.
private enum CaptureLoop {
    static var url: URL { BuiltFaultline.executable("CaptureLoop") }

    /// Starts it capturing into `logs` and sending to `dsn`; returns once it captures.
    static func start(logs: URL, dsn: String) async throws -> ExternalProcess {
        let process = try await ExternalProcess.start(url, [logs.path, dsn], output: .lines)
        let first = try await process.line()
        try #require(first == "ready", "CaptureLoop said \(first)")
        return process
    }

    /// Runs it to send what earlier runs left, without blocking a thread (serve runs in this process); returns what
    /// it said.
    static func flush(logs: URL, dsn: String) async throws -> String {
        // It gives up after 60 s itself, and says so.
        let outcome = try await ExternalProcess.start(url, [logs.path, dsn, "--flush"]).exit(
            stall: slowed(.seconds(90)))
        return outcome.text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// The records of one of a log directory's logs (its events by default), read as they are on disk: whole lines
/// (ending with a newline) and the `event_id` of each, the last line cut short when it has no newline.
private struct LogLines {
    var eventIDs: [String] = []
    var unparsable = 0
    var cutShort = 0

    /// Reads them off the concurrency pool: the logs grow to tens of thousands of lines, read after every kill, and
    /// serve answers the app from this process meanwhile.
    static func read(in directory: URL, of kind: RecordKind = .events) async throws -> LogLines {
        try await offThePool { try LogLines(in: directory, of: kind) }
    }

    private init(in directory: URL, of kind: RecordKind) throws {
        let folder = kind.directory(in: LogLayout(directory))
        for file in EventLog.files(in: folder, fileName: kind.fileName) {
            var bytes = try Data(contentsOf: file)
            if file.pathExtension == "gz" { bytes = try Gzip.decompress(bytes, maximumSize: 1 << 30) }
            let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            if let last = lines.last, !last.isEmpty { cutShort += 1 }
            for line in lines.dropLast() where !line.isEmpty {
                guard let event = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
                    let id = event["event_id"] as? String
                else {
                    unparsable += 1
                    continue
                }
                eventIDs.append(id)
            }
        }
    }
}
