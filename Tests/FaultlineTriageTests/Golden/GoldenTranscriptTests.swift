import FaultlineReporting
import FaultlineTestServer
import Foundation
import SeedScenarios
import Synchronization
import Testing

/// Transcripts of every `faultline` command, in text and JSON, run as a user runs them (the built executable, no
/// terminal, `NO_COLOR`) over the log the real pipeline wrote while the seed scenarios failed against the seed
/// server. The reporter's clock is moved 150 s before each scenario, so the times are the same on every run; the
/// few values that still change (the server's port, event and request ids, the log's path) are replaced by
/// placeholders. The expected transcripts are in `Tests/golden/triage`; `FAULTLINE_UPDATE_GOLDEN=1` rewrites them.
@Suite struct GoldenTranscriptTests {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("golden/triage")

    @Test func everyCommandPrintsItsGoldenTranscript() async throws {
        let logs = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-golden-\(UUID())")
        defer { try? FileManager.default.removeItem(at: logs) }
        try await Self.writeSeedScenarioLog(to: logs)
        let issueIDs = try Self.issueIDs(logs: logs)
        let travels = try #require(issueIDs["server POST /boleto/travels 400 40013"])
        let profileImage = try #require(issueIDs["decoding Envelope<User> data.profileImage"])

        let commands: [(name: String, arguments: [String])] = [
            ("summary", []), ("summary-json", ["summary", "--json"]),
            ("issues", ["issues"]), ("issues-json", ["issues", "--json"]),
            ("issues-server-by-users", ["issues", "--kind", "server", "--sort", "users"]),
            ("show", ["show", travels]), ("show-json", ["show", String(profileImage.prefix(4)), "--json"]),
            ("timeline", ["timeline"]), ("timeline-json", ["timeline", "--json"]),
            ("tail", ["tail", "-n", "3"]), ("tail-json", ["tail", "-n", "2", "--json"]),
            ("stats", ["stats"]), ("stats-json", ["stats", "--json"]),
            ("summary-user", ["summary", "--user", "APPLE_lee"]),
        ]
        var mismatches: [String] = []
        for command in commands {
            let output = try Self.run(command.arguments, logs: logs)
            let transcript =
                (["$ faultline"] + command.arguments).joined(separator: " ") + "\n" + Self.redacted(output, logs: logs)
            let file = Self.golden.appendingPathComponent("\(command.name).txt")
            if ProcessInfo.processInfo.environment["FAULTLINE_UPDATE_GOLDEN"] == "1" {
                try FileManager.default.createDirectory(at: Self.golden, withIntermediateDirectories: true)
                try transcript.write(to: file, atomically: true, encoding: .utf8)
                continue
            }
            let expected = try String(contentsOf: file, encoding: .utf8)
            if transcript != expected { mismatches.append(Self.firstDifference(command.name, transcript, expected)) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }

    /// The log the pipeline writes while the seed scenarios fail, dated by a clock that starts at
    /// 2026-11-23T09:00:00Z and moves 150 s before each scenario.
    private static func writeSeedScenarioLog(to logs: URL) async throws {
        let clock = Mutex(Date(timeIntervalSince1970: 1_795_424_400))
        var options = Reporter.Options(logDirectory: logs)
        options.release = "boleto@2.4.1"
        options.clock = { clock.withLock { $0 } }
        let reporter = try Reporter(options: options)
        try await SeedServer.run { server in
            await CapturedSeedScenarios(server: server, reporter: reporter).run {
                clock.withLock { $0 += 150 }
            }
        }
        await reporter.close()
    }

    /// Issue ids by fingerprint (its parts joined by spaces), from `faultline issues --json`.
    private static func issueIDs(logs: URL) throws -> [String: String] {
        struct Issues: Decodable {
            struct Row: Decodable {
                let id: String
                let fingerprint: [String]
            }
            let issues: [Row]
        }
        let rows = try JSONDecoder().decode(
            Issues.self, from: Data(try run(["issues", "--json"], logs: logs).utf8))
        return Dictionary(uniqueKeysWithValues: rows.issues.map { ($0.fingerprint.joined(separator: " "), $0.id) })
    }

    /// What `faultline arguments` prints on standard output, reading `logs`.
    private static func run(_ arguments: [String], logs: URL) throws -> String {
        String(decoding: try BuiltFaultline.run(arguments + ["--log-dir", logs.path]), as: UTF8.self)
    }

    /// `output` with what differs between runs replaced: the seed server's port, event and request ids, the log path.
    static func redacted(_ output: String, logs: URL) -> String {
        let replacements = [
            (#"127\.0\.0\.1:[0-9]+"#, "127.0.0.1:<port>"),
            (#"\b[0-9a-f]{32}\b"#, "<event-id>"),
            (#"(request[ _]?(?:id)?"?[:=]? ?"?)[0-9a-f]{8}\b"#, "$1<request-id>"),
        ]
        var text = output.replacingOccurrences(of: logs.path, with: "<logs>")
        for (pattern, template) in replacements {
            text = text.replacingOccurrences(of: pattern, with: template, options: .regularExpression)
        }
        return text
    }

    private static func firstDifference(_ name: String, _ actual: String, _ expected: String) -> String {
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let line =
            zip(actualLines, expectedLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(actualLines.count, expectedLines.count)
        let got = line < actualLines.count ? String(actualLines[line]) : "(end)"
        let wanted = line < expectedLines.count ? String(expectedLines[line]) : "(end)"
        return "\(name).txt differs at line \(line + 1):\n  got      \(got)\n  expected \(wanted)"
    }
}
