import ArgumentParser
import FaultlineTriage

extension IssuesReport.Order: ExpressibleByArgument {}

/// `faultline issues`: one row per issue (events grouped by fingerprint).
struct IssuesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "issues", abstract: "One row per issue: kind, route, codes, events, users, last seen, trend.")

    @OptionGroup var options: TriageOptions

    @Option(help: "Order rows by events, users or recent.")
    var sort: IssuesReport.Order = .events

    func run() async throws {
        let report = IssuesReport(try await options.scan(), order: sort)
        try options.print(report) { report.text(style: $0) }
    }
}
