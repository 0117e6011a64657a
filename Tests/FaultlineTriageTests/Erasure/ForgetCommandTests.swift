import FaultlineRecords
import FaultlineReporting
import FaultlineTriage
import Foundation
import TestSupport
import Testing

/// `faultline forget --user` blanks exactly one user's events in the active log and the rotated gzip files, leaves
/// every other event (and every file without the user's) byte-identical, refuses to run beside a writer, and leaves a
/// file it cannot read as it was.
@Suite struct ForgetCommandTests {
    /// A log directory written by a real ``EventLog`` rotating every few KB: 400 events of `user-0` to `user-9`, the
    /// forgotten `user-3` only from event 150 on, and `ada@example.com` as the email of three events of other users.
    static func log() async throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory("forget")
        let log = try EventLog(configuration: .init(directory: directory.url, maximumFileSize: 8 * 1024))
        for index in 0..<400 {
            var user: [String: Any] = ["id": "user-\(index < 150 && index % 10 == 3 ? 4 : index % 10)"]
            if [7, 201, 334].contains(index) { user["email"] = "ada@example.com" }
            let event: [String: Any] = [
                "event_id": String(format: "%032x", index + 1), "level": "error",
                "timestamp": 1_795_000_000 + Double(index), "message": "failure \(index)", "user": user,
                "tags": ["error.kind": "server", "http.route": "/orders/{id}"],
            ]
            try await log.append(try JSONSerialization.data(withJSONObject: event, options: .sortedKeys))
        }
        try await log.close()
        return directory
    }

    /// Every line of every log file in `directory`, by file name, decompressed.
    static func lines(in directory: URL, except left: URL? = nil) throws -> [String: [Data]] {
        var files: [String: [Data]] = [:]
        for file in EventLog.files(in: directory) where file != left {
            var bytes = try Data(contentsOf: file)
            if file.pathExtension == "gz" { bytes = try Gzip.decompress(bytes, maximumSize: 1 << 30) }
            files[file.lastPathComponent] = bytes.split(separator: UInt8(ascii: "\n")).map { Data($0) }
        }
        return files
    }

    static func isForgotten(_ line: Data) -> Bool {
        line.range(of: Data(#""id":"user-3""#.utf8)) != nil || line.range(of: Data("ada@example.com".utf8)) != nil
    }

    @Test func theUsersLinesAreBlankedInEveryFileAndEveryOtherLineIsByteIdentical() async throws {
        let log = try await Self.log()
        defer { log.remove() }
        let before = try Self.lines(in: log.url)
        let rotatedBytes = try EventLog.files(in: log.url).filter { $0.pathExtension == "gz" }
            .map { ($0.lastPathComponent, try Data(contentsOf: $0)) }
        #expect(rotatedBytes.count >= 5, "the log must have rotated files to rewrite")
        let expected = before.values.joined().filter(Self.isForgotten).count
        #expect(expected == 25 + 3)

        // A dry run counts and changes nothing
        let dry = try await Self.json(
            ["forget", "--user", "user-3", "--user", "ada@example.com", "--dry-run", "--json"], log)
        #expect(dry["total"] as? Int == expected && dry["dry_run"] as? Bool == true)
        #expect(try Self.lines(in: log.url) == before)

        let result = try await Self.json(["forget", "--user", "user-3", "--user", "ada@example.com", "--json"], log)
        #expect(result["total"] as? Int == expected)
        let after = try Self.lines(in: log.url)
        #expect(Set(after.keys) == Set(before.keys))
        for (name, lines) in before {
            let rewritten = try #require(after[name])
            #expect(rewritten.count == lines.count, "\(name) lost or gained lines")
            for (old, new) in zip(lines, rewritten) {
                if Self.isForgotten(old) {
                    #expect(new == Data(repeating: UInt8(ascii: " "), count: old.count), "\(name): not blanked")
                } else {
                    #expect(new == old, "\(name): another user's event changed")
                }
            }
        }
        // A rotated file without the user's events is not rewritten at all
        for (name, bytes) in rotatedBytes where !(before[name] ?? []).contains(where: Self.isForgotten) {
            #expect(try Data(contentsOf: log.file(name)) == bytes, "\(name) was rewritten")
        }
        #expect(try log.names().allSatisfy { !$0.hasSuffix(".tmp") })
        // Readers count the others, exactly; a second run finds nothing
        let summary = try await Self.json(["summary", "--json"], log)
        #expect(summary["event_count"] as? Int == 400 - expected)
        #expect(try await Self.json(["forget", "--user", "user-3", "--json"], log)["total"] as? Int == 0)
    }

    @Test func aUserIsFoundHoweverTheirIdIsEscapedInTheJSON() async throws {
        let log = try TemporaryDirectory("forget-escaped")
        defer { log.remove() }
        // As Python's json.dumps (\u escapes), Foundation's JSONSerialization (\/) and Swift's encoder (raw UTF-8)
        // write them
        let lines = [
            #"{"event_id":"01","timestamp":1795000000,"message":"a","user":{"id":"j\u00fcrgen"}}"#,
            #"{"event_id":"02","timestamp":1795000001,"message":"b","user":{"id":"jürgen"}}"#,
            #"{"event_id":"03","timestamp":1795000002,"message":"c","user":{"id":"team\/42"}}"#,
            #"{"event_id":"04","timestamp":1795000003,"message":"d","user":{"id":"jurgen"}}"#,
            #"{"event_id":"05","timestamp":1795000004,"message":"e","user":{"username":"j\u00fcrgen"}}"#,
        ]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: log.file("events.jsonl"))
        #expect(
            try await Self.json(["forget", "--user", "jürgen", "--user", "team/42", "--json"], log)["total"] as? Int
                == 4)
        let left = try Self.lines(in: log.url)["events.jsonl"] ?? []
        #expect(left.filter { $0.first != UInt8(ascii: " ") }.map { String(decoding: $0, as: UTF8.self) } == [lines[3]])
    }

    @Test func theUsersTransactionsAreBlankedAndTheRequestOutcomesLeftAsTheyWere() async throws {
        let log = try TemporaryDirectory("forget-transactions")
        defer { log.remove() }
        // Transactions carry their user as events do; request outcomes carry none
        let requests = LogLayout(log.url).requests
        try FileManager.default.createDirectory(at: requests, withIntermediateDirectories: true)
        let transactions = [
            #"{"event_id":"01","type":"transaction","start_timestamp":1795000000,"timestamp":1795000001,"user":{"id":"user-3"}}"#,
            #"{"event_id":"02","type":"transaction","start_timestamp":1795000000,"timestamp":1795000001,"user":{"id":"user-4"}}"#,
        ]
        try Data((transactions.joined(separator: "\n") + "\n").utf8)
            .write(to: requests.appendingPathComponent("transactions.jsonl"))
        let outcomes = Data(#"{"type":"faultline.request_outcomes","id":"a","start":1795000000,"end":1795000060}"#.utf8)
        try outcomes.write(to: requests.appendingPathComponent("outcomes.jsonl"))

        let result = try await Self.json(["forget", "--user", "user-3", "--json"], log)

        #expect(result["total"] as? Int == 1)
        let erased = try #require(result["erased"] as? [[String: Any]])
        #expect(erased.map { $0["path"] as? String } == ["requests/transactions.jsonl"])
        let left = try String(contentsOf: requests.appendingPathComponent("transactions.jsonl"), encoding: .utf8)
        #expect(left == String(repeating: " ", count: transactions[0].utf8.count) + "\n" + transactions[1] + "\n")
        #expect(try Data(contentsOf: requests.appendingPathComponent("outcomes.jsonl")) == outcomes)
    }

    @Test func itRefusesToRunWhileALogIsOpenOnTheDirectory() async throws {
        let log = try await Self.log()
        defer { log.remove() }
        let before = try Self.lines(in: log.url)
        let writer = try EventLog(configuration: .init(directory: log.url, maximumFileSize: 8 * 1024))
        let refused = try await BuiltFaultline.outcome(of: ["forget", "--user", "user-3", "--log-dir", log.path])
        #expect(refused.status == 2)
        #expect(refused.errors.contains("a process writes this log directory"))
        #expect(try Self.lines(in: log.url) == before)
        try await writer.close()
        #expect(try await Self.json(["forget", "--user", "user-3", "--json"], log)["total"] as? Int == 25)
    }

    @Test func aCorruptRotatedFileIsLeftAsItWasAndNamedWhileTheOthersAreErased() async throws {
        let log = try await Self.log()
        defer { log.remove() }
        let rotated = try #require(EventLog.files(in: log.url).last { $0.pathExtension == "gz" })
        let cut = try Data(contentsOf: rotated).dropLast(40)
        try Data(cut).write(to: rotated)
        let outcome = try await BuiltFaultline.outcome(of: ["forget", "--user", "user-3", "--log-dir", log.path])
        #expect(outcome.status == 1)
        #expect(outcome.text.contains("not read, left as it was: \(rotated.path)"))
        #expect(outcome.errors.contains("may still hold the user's events"))
        #expect(try Data(contentsOf: rotated) == Data(cut))
        let remaining = try Self.lines(in: log.url, except: rotated)
        #expect(!remaining.values.joined().contains { $0.range(of: Data(#""id":"user-3""#.utf8)) != nil })
    }

    private static func json(_ arguments: [String], _ log: TemporaryDirectory) async throws -> [String: Any] {
        let output = try await BuiltFaultline.run(arguments + ["--log-dir", log.path])
        return try #require(try JSONSerialization.jsonObject(with: output) as? [String: Any])
    }
}
