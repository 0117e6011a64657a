import ArgumentParser
import FaultlineTriage
import Foundation

/// `faultline stats`: outbox depth, deliveries and drops by reason (and the same for each forward queue of
/// `faultline serve --forward`), and what could not be read.
struct StatsCommand: AsyncParsableCommand, CommandWithExamples {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Outbox and forward queue depth, deliveries, drops by reason, unreadable lines and files.")

    static let examples: [(commandLine: String, purpose: String)] = [
        (
            "faultline stats",
            "What waits in the outbox and the forward queues, what was delivered and dropped, and why."
        ),
        ("faultline stats --log-dir /var/lib/faultline --json", "A serve's log directory, as JSON."),
    ]

    @OptionGroup var options: TriageOptions

    func run() async throws {
        let report = StatsReport(try await options.scan(), logDirectory: options.logDirectory)
        try options.print(report) { report.text(style: $0) }
    }
}
