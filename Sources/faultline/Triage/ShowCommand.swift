import ArgumentParser
import FaultlineLogReading
import FaultlineRecords
import FaultlineReporting
import FaultlineTriage
import Foundation

/// `faultline show <id>`: one issue in depth, with the breadcrumbs of its latest event; or one event in full, by its
/// event id.
struct ShowCommand: AsyncParsableCommand, CommandWithExamples {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "One issue: its users, routes, codes, releases, latest event; or one event, by its event id.")

    static let examples: [(commandLine: String, purpose: String)] = [
        ("faultline show 243e3b92", "One issue, by the id `faultline issues` printed (or any unique start of it)."),
        ("faultline show 243e --since 1h --json", "The same issue over the last hour, as JSON."),
        ("faultline show 0a6e1826774d --raw", "One event, by the id 'faultline events' printed, exactly as stored."),
    ]

    @Argument(
        help: ArgumentHelp(
            "The issue's id from 'faultline issues', or an event's id from 'faultline events'; enough of its "
                + "start to be unique."))
    var id: String

    @Flag(help: "For an event id: print the event's JSON exactly as stored.")
    var raw = false

    @OptionGroup var options: TriageOptions
    @OptionGroup var signals: SignalOptions

    func run() async throws {
        let scan = try await options.scan(signals: signals)
        let issue: Issue
        do {
            issue = try scan.issue(id)
        } catch IssueLookupError.notFound {
            try showEvent(in: scan)
            return
        } catch {
            throw CommandFailure(message: "\(error)", status: .failed)
        }
        if raw { throw CommandFailure(message: "--raw prints an event: \(id) is an issue's id.", status: .usage) }
        let report = IssueReport(issue, in: scan, latestEvent: scan.latestEvent(of: issue))
        try options.print(report) { report.text(style: $0) }
    }

    /// Shows the one event whose id starts with ``id``, when no issue's does.
    private func showEvent(in scan: LogScan) throws {
        let found = EventLookup.events(withIDPrefix: id, in: try options.logFiles())
        guard found.count == 1, let event = found.first else {
            let message =
                found.isEmpty
                ? "No issue or event \(id) in these logs and filters. Run 'faultline issues' or "
                    + "'faultline events <issue>' to list the ids."
                : "\(id) matches several events (\(found.map(\.record.eventID).joined(separator: ", ")), …): "
                    + "give more of the id."
            throw CommandFailure(message: message, status: .failed)
        }
        if raw {
            try StandardOutput.write(event.line + Data("\n".utf8))
            return
        }
        guard let decoded = try? SentryEvent(line: event.line) else {
            throw CommandFailure(
                message: "event \(event.record.eventID) could not be read in full; --raw prints it as stored.",
                status: .failed)
        }
        let grouping = try event.line.withUnsafeBytes { raw in
            try EventRecord.groupingExplanation(line: raw.bindMemory(to: UInt8.self))
        }
        let report = EventReport(event.record, decoded: decoded, grouping: grouping, in: scan)
        try options.print(report) { report.text(style: $0) }
    }
}
