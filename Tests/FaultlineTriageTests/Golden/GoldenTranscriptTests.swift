import FaultlineReporting
import FaultlineTestServer
import FaultlineTriage
import Foundation
import SeedScenarios
import Synchronization
import TestSupport
import Testing

/// Transcripts of every `faultline` command, in text and JSON, run as a user runs them (the built executable, no
/// terminal, `NO_COLOR`) over the log the real pipeline wrote while the seed scenarios failed against the seed
/// server. The reporter's clock is moved 150 s before each scenario, so the times are the same on every run; the
/// few values that still change (the server's port, event and request ids, the log's path) are replaced by
/// placeholders. The expected transcripts are in `Tests/golden/triage`; `FAULTLINE_UPDATE_GOLDEN=1` rewrites them.
@Suite struct GoldenTranscriptTests {
    static let golden = Repository.file("Tests/golden/triage")

    @Test func everyCommandPrintsItsGoldenTranscript() async throws {
        let temporary = try TemporaryDirectory("golden")
        defer { temporary.remove() }
        let logs = temporary.url
        try await Self.writeSeedScenarioLog(to: logs)
        let issueIDs = try await Self.issueIDs(logs: logs)
        let travels = try #require(issueIDs["server POST /boleto/travels 400 40013"])
        let profileImage = try #require(issueIDs["decoding Envelope<User> data.profileImage"])

        let korean = logs.appendingPathComponent("korean")
        try Self.writeKoreanLog(to: korean)

        var commands: [(name: String, arguments: [String], columns: Int?, logs: URL)] = [
            ("summary", []), ("summary-json", ["summary", "--json"]),
            ("issues", ["issues"]), ("issues-json", ["issues", "--json"]),
            ("issues-server-by-users", ["issues", "--kind", "server", "--sort", "users"]),
            ("show", ["show", travels]), ("show-json", ["show", String(profileImage.prefix(4)), "--json"]),
            ("timeline", ["timeline"]), ("timeline-json", ["timeline", "--json"]),
            ("tail", ["tail", "-n", "3"]), ("tail-json", ["tail", "-n", "2", "--json"]),
            ("stats", ["stats"]), ("stats-json", ["stats", "--json"]),
            ("summary-user", ["summary", "--user", "APPLE_lee"]),
        ].map { ($0.0, $0.1, nil, logs) }
        // At a terminal's width, the seed log and a log whose titles and users are Korean, two cells a character.
        for columns in [80, 120] {
            commands += [
                ("summary-\(columns)-columns", ["summary"], columns, logs),
                ("issues-\(columns)-columns", ["issues"], columns, logs),
                ("tail-\(columns)-columns", ["tail", "-n", "4"], columns, logs),
                (
                    "incident-\(columns)-columns",
                    ["incident", "--since", "2026-11-23T09:10Z", "--until", "2026-11-23 10:00"], columns, logs
                ),
                ("korean-summary-\(columns)-columns", ["summary"], columns, korean),
                ("korean-tail-\(columns)-columns", ["tail"], columns, korean),
            ]
        }
        var mismatches: [String] = []
        for command in commands {
            let output = try await Self.run(
                command.arguments, logs: command.logs,
                environment: command.columns.map { ["COLUMNS": String($0)] } ?? [:])
            let prompt = (command.columns.map { ["$ COLUMNS=\($0) faultline"] } ?? ["$ faultline"]) + command.arguments
            let transcript = prompt.joined(separator: " ") + "\n" + Self.redacted(output, logs: logs)
            if let columns = command.columns {
                let wide = output.split(separator: "\n").filter { TerminalText.width(String($0)) > columns }
                #expect(wide.isEmpty, "\(command.name): lines wider than \(columns) cells: \(wide)")
                // what failed, not the route that has a column of its own: the decoding failure's coding path, the
                // error page's title
                if ["issues", "summary", "incident", "tail"].contains(command.arguments[0]), command.logs == logs {
                    #expect(output.contains("valueNotFound at 'data.profileImage'"), "\(command.name)")
                    #expect(output.contains("HTTP 502 page \"502 Bad Gateway\""), "\(command.name)")
                }
            }
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
        var options = Reporter.Options(logDirectory: logs, environmentVariables: [:])
        options.release = "boleto@2.4.1"
        // An iOS app's events, which name no server, on every machine.
        options.serverName = nil
        options.clock = { clock.withLock { $0 } }
        let reporter = try Reporter(options: options)
        // The same bytes on every machine: the contexts say which machine (its memory, processors, system), so they
        // are set here as one machine's.
        await reporter.configureScope {
            $0.contexts = [
                "os": ["type": "os", "name": "Linux", "version": "6.1.0"],
                "device": ["type": "device", "family": "Linux", "arch": "x86_64", "processor_count": 2],
                "runtime": ["type": "runtime", "name": "swift"],
                "app": ["type": "app", "app_name": "seed-scenarios"],
            ]
        }
        try await SeedServer.run { server in
            await CapturedSeedScenarios(server: server, reporter: reporter).run {
                clock.withLock { $0 += 150 }
            }
        }
        await reporter.close()
    }

    /// A log as an app whose users and server write Korean would have: Korean messages at the start of titles and
    /// Korean user ids, one event a minute from 2026-11-24T09:00:00Z.
    private static func writeKoreanLog(to logs: URL) throws {
        let events: [(kind: String, title: String, user: String, status: Int)] = [
            ("server", "여행 일정이 중복됩니다. 날짜를 다시 선택해 주세요", "김철수", 400),
            ("server", "이미 잠긴 여행입니다. 잠금을 해제한 뒤 다시 시도하세요", "이영희", 403),
            ("decoding", "프로필 이미지가 없는 사용자의 응답을 읽지 못했습니다", "박민수", 200),
            ("server", "여행 일정이 중복됩니다. 날짜를 다시 선택해 주세요", "이영희", 400),
            ("transport", "서버에 연결할 수 없습니다: 네트워크 상태를 확인하세요", "김철수", 0),
        ]
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        let lines = try events.enumerated().map { index, event in
            let object: [String: Any] = [
                "event_id": String(format: "%032x", index + 1),
                "timestamp": String(format: "2026-11-24T09:%02d:00Z", index), "level": "error",
                "release": "여행앱@3.0.0",
                "exception": ["values": [["type": "ServerFailure", "value": event.title]]],
                "tags": ["error.kind": event.kind, "http.route": "/여행/{id}"]
                    .merging(event.status == 0 ? [:] : ["http.status_code": String(event.status)]) { $1 },
                "user": ["id": event.user],
            ]
            return String(
                decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
        }
        try (lines.joined(separator: "\n") + "\n").write(
            to: logs.appendingPathComponent("events.jsonl"), atomically: true, encoding: .utf8)
    }

    /// Issue ids by fingerprint (its parts joined by spaces), from `faultline issues --json`.
    private static func issueIDs(logs: URL) async throws -> [String: String] {
        struct Issues: Decodable {
            struct Row: Decodable {
                let id: String
                let fingerprint: [String]
            }
            let issues: [Row]
        }
        let rows = try JSONDecoder().decode(
            Issues.self, from: Data(try await run(["issues", "--json"], logs: logs).utf8))
        return Dictionary(uniqueKeysWithValues: rows.issues.map { ($0.fingerprint.joined(separator: " "), $0.id) })
    }

    /// What `faultline arguments` prints on standard output, reading `logs`.
    private static func run(_ arguments: [String], logs: URL, environment: [String: String] = [:]) async throws
        -> String
    {
        String(
            decoding: try await BuiltFaultline.run(arguments + ["--log-dir", logs.path], environment: environment),
            as: UTF8.self)
    }

    /// `output` with what differs between runs and machines replaced: the seed server's port, event and request ids,
    /// the log path, the kernel's version in the `os` context.
    static func redacted(_ output: String, logs: URL) -> String {
        let replacements = [
            (#"127\.0\.0\.1:[0-9]+"#, "127.0.0.1:<port>"),
            (#"(os"? :? ?"?Linux )[0-9][0-9A-Za-z.+_-]*"#, "$1<kernel-version>"),
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
