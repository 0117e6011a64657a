import ArgumentParser
import FaultlineTriage

/// `faultline summary`, the default: totals by kind, the top issues, users, releases, the time range, and what
/// could not be read.
struct SummaryCommand: AsyncParsableCommand, CommandWithExamples {
    static let configuration = CommandConfiguration(
        commandName: "summary", abstract: "What broke, since when, for how many users, in which releases.")

    static let examples: [(commandLine: String, purpose: String)] = [
        ("faultline summary --since 2h", "What broke in the last two hours, for how many users, in which releases."),
        ("faultline summary --release app@2.4.1 --json", "One release, as JSON for a script."),
    ]

    @OptionGroup var options: TriageOptions
    @OptionGroup var signals: SignalOptions

    func run() async throws {
        let report = SummaryReport(try await options.scan(signals: signals))
        try options.print(report) { report.text(style: $0) }
    }
}
