import ArgumentParser
import FaultlineTriage
import Foundation

/// `faultline stats`: outbox depth, deliveries and drops by reason (and the same for each forward queue of
/// `faultline serve --forward`), and what could not be read.
struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Outbox and forward queue depth, deliveries, drops by reason, unreadable lines and files.")

    @OptionGroup var options: TriageOptions

    func run() async throws {
        let report = StatsReport(try await options.scan(), logDirectory: options.logDirectory)
        try options.print(report) { report.text(style: $0) }
    }
}
