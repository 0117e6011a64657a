import ArgumentParser
import Faultline

/// The `faultline` command-line tool.
@main
struct FaultlineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "faultline",
        abstract: "Make API-client failures visible and actionable.",
        version: "faultline \(FaultlineVersion.current)",
        subcommands: [
            SummaryCommand.self, IncidentCommand.self, IssuesCommand.self, ShowCommand.self, TimelineCommand.self,
            TailCommand.self,
            StatsCommand.self, ReportCommand.self,
            ServeCommand.self, DemoCommand.self,
        ],
        defaultSubcommand: SummaryCommand.self)
}
