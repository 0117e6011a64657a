import ArgumentParser
import FaultlineTriage
import Foundation

/// `faultline show <id>`: one issue in depth, with the breadcrumbs of its latest event.
struct ShowCommand: AsyncParsableCommand, CommandWithExamples {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "One issue: its users, routes, codes, releases, server message or decoding path, breadcrumbs.")

    static let examples: [(commandLine: String, purpose: String)] = [
        ("faultline show 243e3b92", "One issue, by the id `faultline issues` printed (or any unique start of it)."),
        ("faultline show 243e --since 1h --json", "The same issue over the last hour, as JSON."),
    ]

    @Argument(help: "The issue's id from 'faultline issues', or enough of its start to be unique.")
    var id: String

    @OptionGroup var options: TriageOptions
    @OptionGroup var signals: SignalOptions

    func run() async throws {
        let scan = try await options.scan(signals: signals)
        let issue: Issue
        do {
            issue = try scan.issue(id)
        } catch {
            throw CommandFailure(message: "\(error)", status: .failed)
        }
        let report = IssueReport(issue, in: scan, latestEvent: scan.latestEvent(of: issue))
        try options.print(report) { report.text(style: $0) }
    }
}
