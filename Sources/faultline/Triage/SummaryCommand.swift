import ArgumentParser
import FaultlineTriage

/// `faultline summary`, the default: totals by kind, the top issues, users, releases, the time range, and what
/// could not be read.
struct SummaryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "summary", abstract: "What broke, since when, for how many users, in which releases.")

    @OptionGroup var options: TriageOptions
    @OptionGroup var signals: SignalOptions

    func run() async throws {
        let report = SummaryReport(try await options.scan(signals: signals))
        try options.print(report) { report.text(style: $0) }
    }
}
