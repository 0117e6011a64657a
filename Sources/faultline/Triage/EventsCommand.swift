import ArgumentParser
import FaultlineTriage
import Foundation

/// `faultline events <id>`: an issue's events, newest first, to pick one for `show`.
struct EventsCommand: AsyncParsableCommand, CommandWithExamples {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "An issue's events, newest first: time, event id, user, release, route, status, title.")

    static let examples: [(commandLine: String, purpose: String)] = [
        ("faultline events 243e3b92", "The issue's 100 latest events; 'faultline show <event id>' shows one."),
        ("faultline events 243e --since 1h --user KAKAO_kim", "Its events of the last hour for one user."),
        ("faultline events 243e --limit 1000 --csv > events.csv", "A thousand of them for a spreadsheet."),
    ]

    @Argument(help: "The issue's id from 'faultline issues', or enough of its start to be unique.")
    var id: String

    @OptionGroup var options: TriageOptions

    @Option(help: "List at most this many events, the newest.")
    var limit = 100

    @Flag(help: "Print one JSON object per event and line (JSON Lines), newest first.")
    var ndjson = false

    @Flag(help: "Print CSV (RFC 4180) with a header row, newest first.")
    var csv = false

    func validate() throws {
        if limit < 1 { throw ValidationError("--limit is a number of events, 1 or more.") }
        if [options.json, ndjson, csv].filter({ $0 }).count > 1 {
            throw ValidationError("Choose one of --json, --ndjson and --csv.")
        }
    }

    func run() async throws {
        let scan = try await options.scan()
        let issue: Issue
        do {
            issue = try scan.issue(id)
        } catch {
            throw CommandFailure(message: "\(error)", status: .failed)
        }
        var filter = try options.filter()
        filter.grouping = issue.fingerprint
        let latest = LatestEvents(limit, from: try options.logFiles(), filter: filter)
        let report = EventsReport(issue, in: scan, records: latest.events)
        if ndjson {
            for event in report.events { try StandardOutput.write(try JSONOutput.encode(event, pretty: false)) }
        } else if csv {
            try StandardOutput.write(Data(report.csv().utf8))
        } else {
            try options.print(report) { report.text(style: $0) }
        }
    }
}
