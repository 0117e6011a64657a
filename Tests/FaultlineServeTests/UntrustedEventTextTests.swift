import FaultlineReporting
import FaultlineTriage
import Foundation
import TestSupport
import Testing

/// What a triager sees of events that strangers sent: through a real `faultline serve`, from `curl`-like requests,
/// the official Python SDK and sentry-cli, then every command as a user runs it (the built executable), in text and
/// JSON.
@Suite struct UntrustedEventTextTests {
    /// A message that clears the screen, retitles the window, and forges a line of `tail` after a newline.
    static let forged = "\u{1B}[2J\u{1B}]0;pwned\u{07}checkout failed\nFAKE 2026-11-24T00:00:00Z  server  500 injected"

    /// A release that retitles the window, clears the screen, forges a line, reverses the text and ends in C1 and NUL.
    static let forgedRelease = "r\u{1B}]0;PWNED\u{07}\u{1B}[2J\r\nFORGED\u{202E}\u{9B}\u{0}"

    @Test func noControlByteReachesTheTerminalAndEveryAcceptedEventIsCountedOnce() async throws {
        let logs = try ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        let accepted = 5
        try await ServeFixture.run(logs: logs) { serve in
            // Given a store request without a timestamp, whose message and exception hold escapes and a C1 control
            let store = "/api/1/store/?sentry_key=\(ServeFixture.publicKey)"
            let hostile: [String: Any] = [
                "event_id": "0badc0de0badc0de0badc0de0badc0de", "message": Self.forged,
                "exception": ["values": [["type": "Injected\u{9B}31m", "value": "bad \u{202E}txt.exe\r done"]]],
                "tags": ["http.route": "/a\u{1B}[31mb", "error.kind": "server"], "release": Self.forgedRelease,
            ]
            let body = try JSONSerialization.data(withJSONObject: hostile)
            #expect(try await serve.post(store, body: body).0 == 200)
            // and the same event again, which is stored once
            #expect(try await serve.post(store, body: body).0 == 200)
            // and the official Python SDK's hostile message and ZeroDivisionError
            _ = try await PythonPeer.start("hostile_sdk_client.py", [serve.dsn]).exit().succeeded(
                "hostile_sdk_client.py")
            // and sentry-cli's two messages
            for message in ["disk full", "database is on fire"] {
                _ = try await PythonPeer.start(
                    tool: "sentry-cli", ["send-event", "-m", message], environment: ["SENTRY_DSN": serve.dsn]
                ).exit().succeeded("sentry-cli send-event")
            }
        }

        // Then no command prints a control character, a bidi override, or a line that does not start where it should
        let issues = try JSONDecoder().decode(
            IssuesReport.self, from: try await BuiltFaultline.run(["issues", "--json", "--log-dir", logs.path]))
        var texts: [(String, String)] = []
        for arguments in [["summary"], ["issues"], ["tail", "-n", "50"], ["timeline"], ["stats"]]
            + issues.issues.map({ ["show", $0.id] })
        {
            for columns in ["", "80"] {
                let output = try await BuiltFaultline.run(
                    arguments + ["--log-dir", logs.path], environment: columns.isEmpty ? [:] : ["COLUMNS": columns])
                texts.append((arguments.joined(separator: " "), String(decoding: output, as: UTF8.self)))
            }
        }
        for (command, text) in texts {
            let unsafe = text.unicodeScalars.filter { Self.isUnsafe($0) }
            #expect(unsafe.isEmpty, "faultline \(command) printed \(unsafe.map { String($0.value, radix: 16) })")
            #expect(!text.contains("\nFAKE"), "faultline \(command) printed a forged line")
        }
        let tail = try #require(texts.first { $0.0 == "tail -n 50" }?.1)
        let lines = tail.split(separator: "\n").dropFirst()  // its header
        #expect(tail.hasPrefix("TIME (UTC)"))
        #expect(lines.count == accepted)
        #expect(lines.allSatisfy { $0.wholeMatch(of: /2\d{3}-\d\d-\d\dT\d\d:\d\d:\d\dZ  .*/) != nil })
        #expect(tail.contains(#"\x1B[2J\x1B]0;pwned\x07checkout failed\nFAKE"#))
        #expect(tail.contains(#"ana\u{202E}gnp.exe"#))

        // and every accepted event is counted once, the event without a timestamp among them
        #expect(issues.events == accepted)
        let summary =
            try JSONSerialization.jsonObject(
                with: try await BuiltFaultline.run(["summary", "--json", "--log-dir", logs.path])) as? [String: Any]
        #expect(summary?["event_count"] as? Int == accepted)
        #expect(summary?["schema_version"] as? Int == JSONSchemaVersion.current)

        // and sentry-cli's messages are two issues titled with their text, of kind message
        let byTitle = Dictionary(issues.issues.map { ($0.title, $0) }) { first, _ in first }
        #expect(byTitle["disk full"]?.kind == "message")
        #expect(byTitle["database is on fire"]?.kind == "message")
        #expect(byTitle["disk full"]?.id != byTitle["database is on fire"]?.id)
        let messages = try JSONDecoder().decode(
            IssuesReport.self,
            from: try await BuiltFaultline.run(["issues", "--kind", "message", "--json", "--log-dir", logs.path]))
        #expect(Set(messages.issues.map(\.title)) == ["disk full", "database is on fire", Self.forged])
        // and the Python error is titled with its type, as Sentry titles it, and is of kind error
        #expect(byTitle["ZeroDivisionError: division by zero"]?.kind == "error")
        // and JSON keeps the text exact
        #expect(byTitle["bad \u{202E}txt.exe\r done"]?.route == "/a\u{1B}[31mb")
    }

    @Test func theSummarysReleasesAndTheReportShowControlCharactersEscaped() async throws {
        // Given an event whose release retitles the window, clears the screen, forges a line and hides NUL and C1
        let logs = try ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        try await ServeFixture.run(logs: logs) { serve in
            let event: [String: Any] = [
                "event_id": "5afe5afe5afe5afe5afe5afe5afe5afe", "message": "checkout failed",
                "release": Self.forgedRelease, "tags": ["error.kind": "server"],
            ]
            let body = try JSONSerialization.data(withJSONObject: event)
            #expect(try await serve.post("/api/1/store/?sentry_key=\(ServeFixture.publicKey)", body: body).0 == 200)
        }

        // When the summary and the HTML report show it
        let summary = String(
            decoding: try await BuiltFaultline.run(["summary", "--log-dir", logs.path]), as: UTF8.self)
        let page = String(
            decoding: try await BuiltFaultline.run(["report", "--html", "--log-dir", logs.path]), as: UTF8.self)

        // Then the releases line shows every control character escaped, on one line
        let releases = try #require(summary.split(separator: "\n").first { $0.hasPrefix("releases: ") })
        #expect(releases == #"releases: r\x1B]0;PWNED\x07\x1B[2J\r\nFORGED\u{202E}\u{9B}\x00 (1)"#)
        #expect(!summary.contains("\nFORGED"))
        // and neither output holds a control byte but the newline that ends a line
        for (name, text) in [("summary", summary), ("report --html", page)] {
            let unsafe = text.unicodeScalars.filter { Self.isUnsafe($0) }
            #expect(unsafe.isEmpty, "faultline \(name) printed \(unsafe.map { String($0.value, radix: 16) })")
        }
        #expect(page.contains(#"r\x1B]0;PWNED\x07\x1B[2J\r\nFORGED\u{202E}\u{9B}\x00"#))
    }

    @Test func anEventReadTwiceIsOneEvent() async throws {
        let logs = try ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        try await ServeFixture.run(logs: logs) { serve in
            _ = try await PythonPeer.start("sentry_sdk_client.py", [serve.dsn]).exit().succeeded("sentry_sdk_client.py")
        }
        let log = logs.appendingPathComponent("events.jsonl").path
        let once = try JSONDecoder().decode(
            IssuesReport.self, from: try await BuiltFaultline.run(["issues", "--json", "--file", log]))
        let twice = try JSONDecoder().decode(
            IssuesReport.self, from: try await BuiltFaultline.run(["issues", "--json", "--file", log, "--file", log]))
        let piped = try await BuiltFaultline.outcome(
            of: ["issues", "--json", "--file", "-", "--file", log],
            input: try Data(contentsOf: URL(fileURLWithPath: log)))

        #expect(once.events == 4)
        #expect(twice.events == 4 && twice.read.duplicates == 4)
        #expect(twice.issues.map(\.events) == once.issues.map(\.events))
        #expect(piped.status == 0)
        #expect(try JSONDecoder().decode(IssuesReport.self, from: piped.output).events == 4)
    }

    @Test func optionsThatCannotBeMetSayWhyAndFail() async throws {
        let missing = "/nonexistent/faultline-\(UUID()).jsonl"
        let cases: [(arguments: [String], status: Int32, says: String)] = [
            (["issues", "--kind", "bogus", "--file", "/dev/null"], 64, "'bogus' is not a kind"),
            (["issues", "--status", "5x", "--file", "/dev/null"], 64, "'5x' is not an HTTP status"),
            (["issues", "--file", missing], 2, "No file at \(missing)"),
            (["issues", "--log-dir", "/etc/hostname"], 2, "is a file, not a log directory"),
            (
                ["report", "--html", "--file", "/dev/null", "-o", "/nonexistent/report.html"], 1,
                "there is no directory"
            ),
            (["serve", "--port", "70000"], 64, "--port 70000 is not a port"),
            (["serve", "--port", "65536"], 64, "is not a port"),
        ]
        for (arguments, status, says) in cases {
            let outcome = try await BuiltFaultline.outcome(of: arguments)
            #expect(outcome.status == status, "faultline \(arguments.joined(separator: " "))")
            #expect(outcome.errors.contains(says), "faultline \(arguments.joined(separator: " ")): \(outcome.errors)")
            #expect(!outcome.errors.contains("NSCocoaErrorDomain"))
        }
        // A status class is a filter, not an error
        #expect(try await BuiltFaultline.outcome(of: ["issues", "--status", "5xx", "--file", "/dev/null"]).status == 0)
    }

    /// C0 controls but the newline that ends a line, DEL, C1 controls, and the bidi marks, overrides and isolates.
    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A: false
        case 0x00..<0x20, 0x7F, 0x80..<0xA0, 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069:
            true
        default: false
        }
    }
}
