import Faultline
import FaultlineLogReading
import FaultlineReporting
import Foundation
import TestSupport
import Testing

@testable import FaultlineTriage

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Logs written by the real pipeline (a Reporter), grouped into issues with counts that respect every filter.
@Suite struct LogScanTests {
    @Test func eventsAreGroupedByFingerprintWithUsersRoutesAndCodes() async throws {
        let logs = try await Self.pipelineLogs()
        defer { try? FileManager.default.removeItem(at: logs) }

        let scan = await LogScan(files: try LogFile.all(in: logs), filter: EventFilter())
        let report = IssuesReport(scan, order: .events)

        #expect(scan.events == 6)
        #expect(report.issues.map(\.events) == [3, 2, 1])
        let conflict = try #require(report.issues.first)
        #expect(conflict.kind == "server")
        #expect(conflict.route == "/v1/boletos")
        #expect(conflict.status == "409")
        #expect(conflict.serverCode == "40901")
        #expect(conflict.users == 2)
        #expect(report.issues[1].kind == "transport")
        #expect(report.issues[2].kind == "message")
        #expect(scan.counts.duplicates == 0)

        let summary = SummaryReport(scan)
        #expect(
            summary.kinds == [
                "server": 3, "transport": 2, "message": 1, "decoding": 0, "session_expired": 0, "other": 0, "error": 0,
            ])
        #expect(summary.users == 2)
        #expect(summary.releases.map(\.release) == ["shop@2.0.0"])
    }

    @Test func idsIdentifyEachOfAHundredThousandSimilarIssues() async throws {
        // Given 100 000 issues whose fingerprints differ in one number, and two whose parts join to the same text
        let fingerprints = (0..<100_000).map { ["server", "GET /users/\($0)", "503"] } + [["x", "y"], ["xy"]]
        var lines = ""
        for (index, fingerprint) in fingerprints.enumerated() {
            let parts = fingerprint.map { "\"\($0)\"" }.joined(separator: ",")
            lines +=
                #"{"event_id":"\#(String(format: "%032x", index + 1))","timestamp":\#(1_795_000_000 + index),"#
                + #""level":"error","message":"m","fingerprint":[\#(parts)]}"# + "\n"
        }
        let temporary = try TemporaryDirectory("ids")
        defer { temporary.remove() }
        let log = temporary.file("events.jsonl")
        try Data(lines.utf8).write(to: log)

        // When the log is scanned
        let scan = await LogScan(files: [LogFile(url: log)], filter: EventFilter())

        // Then every issue has an id of its own, shown as a prefix of at least 8 digits that no other issue has
        #expect(scan.issues.count == fingerprints.count)
        #expect(Set(scan.issues.values.map(\.id)).count == fingerprints.count)
        // (computed off the concurrency pool: a lookup reads every issue, and the loaded suite's servers wait for the
        // pool's threads)
        let (shown, lookups) = try await offThePool {
            let shown = scan.issues.values.map { (issue: $0, id: scan.shortID(of: $0)) }
            let lookups = try stride(from: 0, to: shown.count, by: 4_000).map { index in
                let (issue, id) = shown[index]
                let longer = String(issue.id.prefix(id.count + 3)).uppercased()
                return [issue.fingerprint, try scan.issue(id).fingerprint, try scan.issue(longer).fingerprint]
            }
            return (shown, lookups)
        }
        #expect(Set(shown.map(\.id)).count == fingerprints.count)
        #expect(shown.allSatisfy { $0.id.count >= 8 && $0.issue.id.hasPrefix($0.id) })
        // and fingerprints one digit apart do not get ids alike: most already differ in their first digit
        let neighbours = (0..<1000).filter { index in
            scan.issues[fingerprints[index]]?.id.first == scan.issues[fingerprints[index + 1]]?.id.first
        }
        #expect(neighbours.count < 200)
        // and each id shown, or any longer prefix of it, finds its issue, for issues spread over the whole scan (a
        // lookup reads every issue: the CLI makes one, where a thousand here kept a core of the loaded suite busy)
        #expect(lookups.count == 26)
        for found in lookups {
            #expect(found[1] == found[0] && found[2] == found[0])
        }
        #expect(throws: IssueLookupError.self) { try scan.issue("") }
    }

    @Test func anIdIsShownWithAsManyDigitsAsSetItApart() {
        let ids = [
            "0123456789abcdef0123456789abcdef", "0123456789abcdef0123456789abcdee", "01234567ffffffffffffffffffffffff",
            "fedcba9876543210fedcba9876543210",
        ]

        let shown = IssueID.abbreviations(of: ids)

        #expect(shown[ids[0]] == "0123456789abcdef0123456789abcdef")
        #expect(shown[ids[1]] == "0123456789abcdef0123456789abcdee")
        #expect(shown[ids[2]] == "01234567f")
        #expect(shown[ids[3]] == "fedcba98")
    }

    @Test(arguments: [("42", 1), ("alice@example.com", 1), ("alice", 1), ("bob", 0)])
    func aUserIsFoundByIdEmailOrUsername(user: String, events: Int) async throws {
        let temporary = try TemporaryDirectory("users")
        defer { temporary.remove() }
        let log = temporary.file("events.jsonl")
        try Data(
            (#"{"event_id":"0123456789abcdef0123456789abcdef","timestamp":1795000000,"message":"m","#
                + #""user":{"id":"42","email":"alice@example.com","username":"alice"}}"# + "\n").utf8
        ).write(to: log)
        var filter = EventFilter()
        filter.users = [user]

        let scan = await LogScan(files: [LogFile(url: log)], filter: filter)

        #expect(scan.events == events)
        #expect(scan.users == (events > 0 ? ["42"] : []))
    }

    @Test func everyCountRespectsTheFilters() async throws {
        let logs = try await Self.pipelineLogs()
        defer { try? FileManager.default.removeItem(at: logs) }
        var filter = EventFilter()
        filter.kinds = ["server"]
        filter.users = ["ana"]

        let scan = await LogScan(files: try LogFile.all(in: logs), filter: filter)
        let summary = SummaryReport(scan)

        #expect(summary.events == 2)
        #expect(summary.issues == 1)
        #expect(summary.users == 1)
        #expect(summary.kinds["server"] == 2)
        #expect(summary.topIssues.first?.users == 1)
        #expect(summary.read.events == 6)  // read, then filtered
    }

    @Test func noEventsIsAnEmptyReportNotAnError() async throws {
        let temporary = try TemporaryDirectory("empty")
        defer { temporary.remove() }
        let empty = temporary.url

        let scan = await LogScan(files: try LogFile.all(in: empty), filter: EventFilter())

        #expect(IssuesReport(scan, order: .events).text(style: TextStyle(colors: false)).hasPrefix("No issues found."))
        #expect(SummaryReport(scan).firstSeen == nil)
    }

    @Test func aLogReadInPiecesOnSeveralCoresCountsWhatASingleReadCounts() async throws {
        // Given a log the pipeline wrote, with a corrupt line in the middle and a last line cut short
        let logs = try await Self.pipelineLogs()
        defer { try? FileManager.default.removeItem(at: logs) }
        let log = logs.appendingPathComponent("events.jsonl")
        var lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map(String.init)
        lines.insert("{not json", at: 3)
        let cut = lines.removeLast()
        try (lines.joined(separator: "\n") + "\n" + cut.prefix(cut.count / 2)).write(
            to: log, atomically: true, encoding: .utf8)
        let files = try LogFile.all(in: logs)

        // When it is read whole, and in pieces of a few hundred bytes
        let whole = await LogScan(files: files, filter: EventFilter(), pieceSize: 1 << 30)
        var progress: [LogScan.Progress] = []
        let pieces = await LogScan(files: files, filter: EventFilter(), pieceSize: 700) { progress.append($0) }

        // Then every piece starts a line, and both reads count the same
        let plan = LogPiece.plan(files, size: 700)
        let bytes = try Data(contentsOf: log)
        #expect(plan.count > 5)
        #expect(
            plan.compactMap(\.range).map(\.lowerBound) == [0] + plan.compactMap(\.range).dropLast().map(\.upperBound))
        #expect(plan.compactMap(\.range).dropFirst().allSatisfy { bytes[$0.lowerBound - 1] == UInt8(ascii: "\n") })
        #expect(plan.last?.range?.upperBound == bytes.count)
        #expect(pieces.counts == whole.counts)
        #expect(pieces.counts.files == 1 && pieces.counts.notJSON == 2 && pieces.counts.events == 5)
        #expect(pieces.issues == whole.issues)
        #expect(SummaryReport(pieces) == SummaryReport(whole))
        #expect(TimelineReport(pieces) == TimelineReport(whole))
        #expect(progress.count == plan.count && progress.last?.bytesRead == bytes.count)
    }

    @Test func anEventReadAgainIsCountedOnceWhereverTheCopiesAre() async throws {
        // Given a log whose events are all written twice, the copies far apart, and the same log named again
        let logs = try await Self.pipelineLogs()
        defer { try? FileManager.default.removeItem(at: logs) }
        let log = logs.appendingPathComponent("events.jsonl")
        let original = try Data(contentsOf: log)
        let single = await LogScan(files: [LogFile(url: log)], filter: EventFilter(), pieceSize: 1 << 30)
        try (original + original).write(to: log)

        // When it is read whole, in pieces of a few hundred bytes, and twice over
        let whole = await LogScan(files: [LogFile(url: log)], filter: EventFilter(), pieceSize: 1 << 30)
        let pieces = await LogScan(files: [LogFile(url: log)], filter: EventFilter(), pieceSize: 700)
        let twice = await LogScan(files: [LogFile(url: log), LogFile(url: log)], filter: EventFilter(), pieceSize: 700)

        // Then each counts every event once, and says how many reads were of events already read
        for scan in [whole, pieces, twice] {
            #expect(scan.events == single.events)
            #expect(scan.issues == single.issues)
            #expect(scan.kinds == single.kinds && scan.minutes == single.minutes && scan.releases == single.releases)
        }
        #expect(whole.counts.duplicates == single.events && pieces.counts.duplicates == single.events)
        #expect(twice.counts.duplicates == 3 * single.events)
    }

    @Test func aStatusClassFiltersLikeItsStatuses() async throws {
        let logs = try await Self.pipelineLogs()
        defer { try? FileManager.default.removeItem(at: logs) }
        var classes = EventFilter()
        classes.statuses = ["4xx"]
        var statuses = EventFilter()
        statuses.statuses = ["409"]
        let byClass = await LogScan(files: try LogFile.all(in: logs), filter: classes)
        let byStatus = await LogScan(files: try LogFile.all(in: logs), filter: statuses)
        #expect(byClass.events == 3 && byClass.issues == byStatus.issues)
        #expect(EventFilter.isStatusPattern("5xx") && EventFilter.isStatusPattern("503"))
        #expect(
            !EventFilter.isStatusPattern("5x") && !EventFilter.isStatusPattern("600")
                && !EventFilter.isStatusPattern("abc"))
    }

    /// A log directory the pipeline wrote: three 409s with business code 40901 for two users, two timeouts, and a
    /// message.
    private static func pipelineLogs() async throws -> URL {
        let logs = try TemporaryDirectory("scan").url
        var options = Reporter.Options(logDirectory: logs)
        options.release = "shop@2.0.0"
        let reporter = try Reporter(options: options)
        let url = URL(string: "https://api.example/v1/boletos")!
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        let conflict = HTTPURLResponse(
            url: url, statusCode: 409, httpVersion: nil, headerFields: ["Content-Type": "application/json"])
        let body = Data(#"{"success": false, "error": {"code": 40901, "message": "Boleto already issued"}}"#.utf8)
        let classifier = FailureClassifier(contract: .envelope())
        for user in ["ana", "ana", "bo"] {
            await reporter.capture(
                request: request, route: "/v1/boletos", response: conflict, body: body, classifier: classifier,
                user: UserContext(id: user))
        }
        for _ in 0..<2 {
            await reporter.capture(
                request: request, route: "/v1/boletos", response: nil, body: nil, error: URLError(.timedOut))
        }
        await reporter.capture(message: "checkout opened without a cart")
        await reporter.close()
        return logs
    }
}

/// `show` and `stats` over logs the pipeline wrote.
@Suite struct IssueDetailTests {
    @Test func anIssueIsFoundByThePrefixOfItsIDWithItsLatestEventInFull() async throws {
        let temporary = try TemporaryDirectory("show")
        defer { temporary.remove() }
        let logs = temporary.url
        let reporter = try Reporter(options: .init(logDirectory: logs))
        await reporter.addBreadcrumb(Breadcrumb(category: "ui", message: "tapped pay"))
        let url = URL(string: "https://api.example/v1/boletos")!
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        let response = HTTPURLResponse(url: url, statusCode: 409, httpVersion: nil, headerFields: nil)
        let body = Data(#"{"success": false, "error": {"code": 40901, "message": "Boleto already issued"}}"#.utf8)
        let captureLine = #line + 1
        await reporter.capture(
            request: request, route: "/v1/boletos", response: response, body: body,
            classifier: FailureClassifier(contract: .envelope()), user: UserContext(id: "ana", segment: "KAKAO"))
        await reporter.close()

        let scan = await LogScan(files: try LogFile.all(in: logs), filter: EventFilter())
        let id = try #require(scan.issues.values.first?.id)
        let issue = try scan.issue(String(id.prefix(3)))
        let report = IssueReport(issue, in: scan, latestEvent: scan.latestEvent(of: issue))

        #expect(report.users.map { "\($0.value) \($0.events)" } == ["ana 1"])
        #expect(report.segments.map { "\($0.value) \($0.events)" } == ["KAKAO 1"])
        #expect(report.serverCodes.map { "\($0.value) \($0.events)" } == ["40901 1"])
        #expect(report.latest?.serverMessage == "Boleto already issued")
        #expect(report.latest?.breadcrumbs.map(\.message).contains("tapped pay") == true)
        // The code that captured it is the latest event's stack trace, in the report and on the terminal.
        let frame = try #require(report.latest?.stacktrace.last)
        #expect(frame.filename == "FaultlineTriageTests/LogScanTests.swift")
        #expect(frame.lineno == captureLine)
        let function = "anIssueIsFoundByThePrefixOfItsIDWithItsLatestEventInFull()"
        #expect(
            report.text(style: TextStyle(colors: false)).contains(
                "stack trace (most recent call last):\n  FaultlineTriageTests/LogScanTests.swift:\(captureLine) in \(function)"
            ))
        #expect(throws: IssueLookupError.notFound("zzzz")) { try scan.issue("zzzz") }
        let stats = StatsReport(scan, logDirectory: logs)
        #expect(stats.outbox?.envelopes == 0)
        #expect(stats.delivery == DeliveryStatistics())
        #expect(stats.read.events == 1)
    }
}
