import FaultlineLogReading
import Foundation
import TestSupport
import Testing

@testable import FaultlineTriage

/// The incident signals over a generated log with planted incidents, checked exactly: a new issue at a known minute,
/// a 10× spike of an old one, a regression in the newest release, and a steady issue that must not be flagged.
@Suite struct IncidentSignalsTests {
    /// The window: 2026-11-24 09:00 to 10:00 UTC.
    static let end = 1_795_514_400.0
    static let start = end - 3600
    static let window = ["--since", "2026-11-24T09:00:00Z", "--until", "2026-11-24T10:00:00Z"]

    @Test func theIncidentViewFlagsWhatWasPlantedAndNothingElse() async throws {
        let logs = try Self.plantedLog()
        defer { try? FileManager.default.removeItem(at: logs) }

        let json = try await BuiltFaultline.run(["incident", "--json", "--log-dir", logs.path] + Self.window)
        let report = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        let flagged = try #require(report["flagged"] as? [[String: Any]])
        let byTitle = Dictionary(uniqueKeysWithValues: flagged.map { ($0["title"] as? String ?? "", $0) })
        #expect(Set(byTitle.keys) == ["new decoding bug", "payment declined", "old crash"])
        #expect(report["newest_release"] as? String == "app@1.2" && report["previous_release"] as? String == "app@1.1")

        let new = try #require(byTitle["new decoding bug"]?["signals"] as? [String: Any])
        #expect(new["new"] as? Bool == true && new["spiking"] as? Bool == false)
        #expect(new["since"] as? String == "2026-11-24T09:40:00Z")
        #expect(new["new_in_release"] as? Bool == true)

        let spike = try #require(byTitle["payment declined"]?["signals"] as? [String: Any])
        let rates = try #require(spike["spike"] as? [String: Any])
        #expect(spike["spiking"] as? Bool == true && spike["new"] as? Bool == false)
        #expect(rates["baseline_per_hour"] as? Double == 3 && rates["window_per_hour"] as? Double == 30)
        #expect(rates["factor"] as? Double == 10)
        #expect(spike["since"] as? String == "2026-11-24T09:30:00Z")
        #expect(spike["users"] as? Int == 10 && spike["users_in_window"] as? Int == 26)
        #expect(spike["segments"] as? [String: Int] == ["pro": 30])

        let regressed = try #require(byTitle["old crash"]?["signals"] as? [String: Any])
        #expect(regressed["regressed"] as? Bool == true && regressed["spiking"] as? Bool == false)
        #expect(regressed["since"] as? String == "2026-11-24T09:10:00Z")
        let shares = try #require(regressed["releases"] as? [[String: Any]])
        #expect(shares.map { $0["release"] as? String } == ["app@1.2", "app@1.0"])

        // and the text view says the same, flags first
        let text = String(
            decoding: try await BuiltFaultline.run(["incident", "--log-dir", logs.path] + Self.window), as: UTF8.self)
        #expect(text.contains("1 new issue, 1 spiking, 1 regressed"))
        #expect(text.contains("3 → 30"))
        #expect(text.contains("10×"))
        #expect(!text.contains("steady timeout"))
        let rows = text.split(separator: "\n").filter { $0.contains("  server  ") }
        #expect(rows.map { $0.split(separator: "  ")[1] } == ["new", "spiking", "regressed"])
    }

    @Test func failOnExitsThreeWhenAnIssueHasASignalItNamesAndZeroOtherwise() async throws {
        let logs = try Self.plantedLog()
        defer { try? FileManager.default.removeItem(at: logs) }
        func incident(_ arguments: [String]) async throws -> ExternalProcess.Outcome {
            try await BuiltFaultline.outcome(of: ["incident", "--log-dir", logs.path] + Self.window + arguments)
        }

        // With the planted new, spiking and regressed issues, each signal named fails the command, after the view
        for (signals, issues) in [
            ("new", "1 issue is"), ("spiking,regressed", "2 issues are"), ("new,spiking", "2 issues are"),
        ] {
            let outcome = try await incident(["--fail-on", signals, "--json"])
            #expect(outcome.status == 3, "\(signals)")
            #expect(outcome.errors == "faultline: \(issues) flagged (--fail-on \(signals)).\n")
            #expect((try JSONSerialization.jsonObject(with: outcome.output) as? [String: Any])?["flagged"] != nil)
        }
        // and --limit shortens the list, not what fails it
        #expect(try await incident(["--fail-on", "regressed", "--limit", "1"]).status == 3)
        // Over the day before, when nothing was flagged, it exits 0
        let quiet = try await BuiltFaultline.outcome(of: [
            "incident", "--log-dir", logs.path, "--since", "2026-11-23T09:00:00Z", "--until", "2026-11-23T10:00:00Z",
            "--fail-on", "new,spiking,regressed",
        ])
        #expect(quiet.status == 0, "\(quiet.text)")
        // and a signal it does not know is a usage error
        let mistaken = try await incident(["--fail-on", "new,spikey"])
        #expect(mistaken.status == 64 && mistaken.errors.contains("--fail-on takes new, spiking, regressed"))
    }

    @Test func firstSeenIsTheFirstEventInTheLogsWhateverTheWindow() async throws {
        let logs = try Self.plantedLog()
        defer { try? FileManager.default.removeItem(at: logs) }

        let json = try await BuiltFaultline.run(["issues", "--json", "--log-dir", logs.path] + Self.window)
        let report = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        let issues = try #require(report["issues"] as? [[String: Any]])
        let firstSeen = Dictionary(
            uniqueKeysWithValues: issues.map { ($0["title"] as? String, $0["first_seen"] as? String) })

        // The old issues were first seen 49 and 40 hours before the window's end, the new one in it
        #expect(firstSeen["payment declined"] == "2026-11-22T09:00:00Z")
        #expect(firstSeen["old crash"] == "2026-11-22T18:00:00Z")
        #expect(firstSeen["new decoding bug"] == "2026-11-24T09:40:00Z")
        // and show says the same within the window
        let id = try #require(issues.first { $0["title"] as? String == "payment declined" }?["id"] as? String)
        let show = String(
            decoding: try await BuiltFaultline.run(["show", id, "--log-dir", logs.path] + Self.window), as: UTF8.self)
        #expect(show.contains("first seen 2026-11-22T09:00:00Z"))
    }

    @Test func theFiltersOfIssuesAndTheSummaryCountTheSame() async throws {
        let logs = try Self.plantedLog()
        defer { try? FileManager.default.removeItem(at: logs) }
        func titles(_ flag: String) async throws -> [String] {
            let report = try JSONDecoder().decode(
                IssuesReport.self,
                from: try await BuiltFaultline.run(["issues", flag, "--json", "--log-dir", logs.path] + Self.window))
            return report.issues.map(\.title)
        }
        #expect(try await titles("--new") == ["new decoding bug"])
        #expect(try await titles("--spiking") == ["payment declined"])
        #expect(try await titles("--regressed") == ["old crash"])
        // The counts are those of the issues listed, not of the whole window
        let spiking = try await BuiltFaultline.run(
            ["issues", "--spiking", "--json", "--log-dir", logs.path] + Self.window)
        let counts = try #require(try JSONSerialization.jsonObject(with: spiking) as? [String: Any])
        #expect(counts["issue_count"] as? Int == 1 && counts["event_count"] as? Int == 30)
        let text = String(
            decoding: try await BuiltFaultline.run(["issues", "--new", "--log-dir", logs.path] + Self.window),
            as: UTF8.self)
        #expect(text.contains("1 issue, 5 events."))
        let summary = try JSONSerialization.jsonObject(
            with: try await BuiltFaultline.run(["summary", "--json", "--log-dir", logs.path] + Self.window))
        let signals = (summary as? [String: Any])?["signals"] as? [String: Int]
        #expect(signals == ["new": 1, "spiking": 1, "regressed": 1])
        // A lower factor flags the steady issue too; a higher minimum unflags the spike
        #expect(
            try JSONDecoder().decode(
                IssuesReport.self,
                from: try await BuiltFaultline.run(
                    ["issues", "--spiking", "--spike-minimum", "31", "--json", "--log-dir", logs.path] + Self.window)
            ).issues.isEmpty)
    }

    @Test func signalsReadInPiecesAreTheSignalsOfOneRead() async throws {
        let logs = try Self.plantedLog()
        defer { try? FileManager.default.removeItem(at: logs) }
        let files = try LogFile.all(in: logs)
        let window = SignalWindow(start: Self.start, end: Self.end)
        let whole = await LogScan(files: files, filter: EventFilter(), window: window, pieceSize: 1 << 30)
        let pieces = await LogScan(files: files, filter: EventFilter(), window: window, pieceSize: 4096)
        #expect(whole.issues.count == 4)
        for issue in whole.issues.values {
            #expect(pieces.signals(of: try pieces.issue(issue.id)) == whole.signals(of: issue))
        }
        #expect(IncidentReport(pieces) == IncidentReport(whole))
    }

    @Test func aWindowThatRunsToNowKeepsTheEventsOfAClockAhead() async throws {
        let logs = try Self.plantedLog()
        defer { try? FileManager.default.removeItem(at: logs) }
        let files = try LogFile.all(in: logs)
        // A window that ends half way through the planted one, as if this machine's clock were 30 minutes behind
        var closed = SignalWindow(start: Self.start, end: Self.start + 1800)
        var open = closed
        open.includesLaterEvents = true
        closed.includesLaterEvents = false
        let withUntil = await LogScan(files: files, filter: EventFilter(), window: closed)
        let toNow = await LogScan(files: files, filter: EventFilter(), window: open)
        #expect(withUntil.events == 9)  // the steady issue's first half hour and the regression
        #expect(toNow.events == 49)  // every event since the start, none left out
    }

    /// Two days of a steady issue (10 an hour, in every release), a payment failure at 3 an hour that jumps to 30 in
    /// the window's second half, a decoding bug first seen at 09:40, and a crash seen in app@1.0, absent from app@1.1
    /// and back in app@1.2. Releases: app@1.0 until 36 h before the window's end, app@1.1 until 2 h before, app@1.2
    /// since.
    private static func plantedLog() throws -> URL {
        var events: [(time: Double, title: String, user: String, segment: String)] = []
        for time in stride(from: end - 49 * 3600, to: end, by: 360) {
            events.append((time, "steady timeout", "u\(Int(time) % 7)", "free"))
        }
        for time in stride(from: end - 49 * 3600, to: start, by: 1200) {
            events.append((time, "payment declined", "p\(Int(time) % 3)", "free"))
        }
        for index in 0..<30 {
            events.append((start + 1800 + Double(index * 60) + 5, "payment declined", "q\(index % 10)", "pro"))
        }
        for index in 0..<5 {
            events.append((start + 2400 + Double(index * 60), "new decoding bug", "n\(index)", "free"))
        }
        for index in 0..<3 { events.append((end - 40 * 3600 + Double(index * 60), "old crash", "o\(index)", "free")) }
        for index in 0..<4 { events.append((start + 600 + Double(index * 60), "old crash", "o\(index)", "free")) }
        events.sort { $0.time < $1.time }

        let logs = try TemporaryDirectory("incident").url
        var text = ""
        for (index, event) in events.enumerated() {
            let release = event.time < end - 36 * 3600 ? "app@1.0" : event.time < end - 2 * 3600 ? "app@1.1" : "app@1.2"
            let object: [String: Any] = [
                "event_id": String(format: "%032x", index + 1), "timestamp": event.time, "release": release,
                "exception": ["values": [["type": "AppError", "value": event.title]]],
                "tags": ["error.kind": "server"], "user": ["id": event.user, "segment": event.segment],
            ]
            text += String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self) + "\n"
        }
        try text.write(to: logs.appendingPathComponent("events.jsonl"), atomically: true, encoding: .utf8)
        return logs
    }
}
