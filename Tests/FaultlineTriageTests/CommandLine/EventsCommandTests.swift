import Foundation
import TestSupport
import Testing

/// `faultline events` lists an issue's events and `show <event id>` shows one, in every output format, exactly.
@Suite struct EventsCommandTests {
    /// Five events of one issue, whose titles need CSV quoting or could run as a spreadsheet formula, and one event of
    /// another issue.
    static let titles = [
        "plain failure", #"quoted "value", with a comma"#, "two\nlines", "=HYPERLINK(\"http://x\")", "-1 + 2",
    ]

    private static func log() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory("events")
        var lines = ""
        for (index, title) in titles.enumerated() {
            let object: [String: Any] = [
                "event_id": String(format: "%032x", index + 1), "timestamp": "2026-11-23T09:0\(index):00Z",
                "level": "error", "release": "app@1", "user": ["id": "user-\(index % 2)"],
                "tags": ["error.kind": "server", "http.route": "/orders/{id}", "http.status_code": "503"],
                "exception": ["values": [["type": "ServerFailure", "value": title]]],
                "fingerprint": ["server", "/orders/{id}", "503"],
            ]
            lines += String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self) + "\n"
        }
        lines +=
            #"{"event_id":"ffffffffffffffffffffffffffffffff","timestamp":"2026-11-23T10:00:00Z","message":"other"}"#
        try Data((lines + "\n").utf8).write(to: directory.file("events.jsonl"))
        return directory
    }

    @Test func anIssuesEventsAreListedNewestFirstAsJSONJSONLinesAndCSV() async throws {
        let log = try Self.log()
        defer { log.remove() }
        let issue = try #require(
            try JSONSerialization.jsonObject(
                with: await BuiltFaultline.run(["issues", "--json", "--log-dir", log.url.path, "--kind", "server"]))
                as? [String: Any]
        ).flatMap { ($0["issues"] as? [[String: Any]])?.first?["id"] as? String }
        let id = try #require(issue)
        func events(_ format: [String]) async throws -> Data {
            try await BuiltFaultline.run(["events", id, "--log-dir", log.url.path] + format)
        }

        // JSON: the five events newest first, each with its id, user, release, route and status
        let json = try #require(try JSONSerialization.jsonObject(with: await events(["--json"])) as? [String: Any])
        let listed = try #require(json["events"] as? [[String: Any]])
        #expect(listed.map { $0["event_id"] as? String } == (1...5).reversed().map { String(format: "%032x", $0) })
        #expect(listed.map { $0["title"] as? String } == Self.titles.reversed())
        #expect(listed.allSatisfy { $0["status"] as? Int == 503 && $0["route"] as? String == "/orders/{id}" })
        #expect(json["left_out"] as? Int == 0)
        // --limit keeps the newest and counts the others
        let limited = try #require(
            try JSONSerialization.jsonObject(with: await events(["--json", "--limit", "2"])) as? [String: Any])
        #expect((limited["events"] as? [[String: Any]])?.count == 2 && limited["left_out"] as? Int == 3)

        // JSON Lines: the same objects, one a line
        let lines = try await events(["--ndjson"]).split(separator: UInt8(ascii: "\n"))
        let objects = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0)) as? [String: Any]) }
        #expect(objects.map { $0["event_id"] as? String } == listed.map { $0["event_id"] as? String })

        // CSV: Python's csv module reads back the same fields, a formula made text by a leading quote
        let csv = log.file("events.csv")
        try await events(["--csv"]).write(to: csv)
        let rows = try #require(
            try JSONSerialization.jsonObject(with: await PythonPeer.run("csv_rows.py", [csv.path]))
                as? [[String: String]])
        #expect(rows.count == listed.count)
        for (row, event) in zip(rows, listed) {
            for key in ["timestamp", "event_id", "kind", "route", "user", "release"] {
                #expect(row[key] == event[key] as? String, "\(key)")
            }
            #expect(row["status"] == "503")
            let title = try #require(event["title"] as? String)
            #expect(row["title"] == ("=-".contains(title.first!) ? "'" + title : title))
        }
    }

    @Test func theIssuesTableIsCSVForASpreadsheetWithTheFieldsOfItsJSON() async throws {
        let log = try Self.log()
        defer { log.remove() }
        let json = try #require(
            try JSONSerialization.jsonObject(
                with: await BuiltFaultline.run(["issues", "--json", "--log-dir", log.path]))
                as? [String: Any])
        let issues = try #require(json["issues"] as? [[String: Any]])
        let csv = log.file("issues.csv")
        try await BuiltFaultline.run(["issues", "--csv", "--log-dir", log.path]).write(to: csv)
        let rows = try #require(
            try JSONSerialization.jsonObject(with: await PythonPeer.run("csv_rows.py", [csv.path]))
                as? [[String: String]])

        // Python's csv module reads back each issue, in the table's order, with its JSON fields
        #expect(rows.count == 2 && rows.count == issues.count)
        for (row, issue) in zip(rows, issues) {
            for key in ["id", "kind", "first_seen", "last_seen"] {
                #expect(row[key] == issue[key] as? String, "\(key)")
            }
            #expect(row["events"] == (issue["events"] as? Int).map(String.init))
            #expect(row["users"] == (issue["users"] as? Int).map(String.init))
            #expect(row["releases"] == (issue["releases"] as? [String])?.joined(separator: ";"))
            #expect(row["route"] == (issue["route"] as? String ?? ""))
            #expect(row["status"] == (issue["status"] as? Int).map(String.init) ?? "")
        }
        // the newest title of the five, which a spreadsheet would run as a formula, is text
        #expect(rows.first?["title"] == "'-1 + 2")
        #expect(rows.first?["route"] == "/orders/{id}" && rows.first?["status"] == "503")
        // and --csv with --json is a usage error
        let both = try await BuiltFaultline.outcome(of: ["issues", "--csv", "--json", "--log-dir", log.path])
        #expect(both.status == 64 && both.errors.contains("Choose one of --json and --csv."))
    }

    @Test func anEventIsShownByItsIDAndPrintedRawExactlyAsStored() async throws {
        let log = try Self.log()
        defer { log.remove() }
        let stored = try String(contentsOf: log.file("events.jsonl"), encoding: .utf8).split(separator: "\n")

        // --raw prints the line as it is in the log, byte for byte, from the full id or a unique start of it
        let raw = try await BuiltFaultline.run(["show", String(format: "%032x", 4), "--raw", "--log-dir", log.url.path])
        #expect(raw == Data((stored[3] + "\n").utf8))
        let other = try await BuiltFaultline.run(["show", "ffffffff", "--raw", "--log-dir", log.url.path])
        #expect(other == Data((stored[5] + "\n").utf8))

        // and shown, it names its issue and has the event in full
        let shown = try #require(
            try JSONSerialization.jsonObject(
                with: await BuiltFaultline.run([
                    "show", String(format: "%032x", 2), "--json", "--log-dir", log.url.path,
                ]))
                as? [String: Any])
        let event = try #require(shown["event"] as? [String: Any])
        #expect(event["event_id"] as? String == String(format: "%032x", 2))
        #expect(event["title"] as? String == Self.titles[1])
        #expect((shown["issue"] as? String)?.count == 8)

        // A start that several events share, or none has, says so
        let ambiguous = try await BuiltFaultline.outcome(of: ["show", "0000", "--log-dir", log.url.path])
        #expect(ambiguous.status == 1 && ambiguous.errors.contains("matches several events"))
        let missing = try await BuiltFaultline.outcome(of: ["show", "abcdef12", "--log-dir", log.url.path])
        #expect(missing.status == 1 && missing.errors.contains("No issue or event abcdef12"))
    }
}
