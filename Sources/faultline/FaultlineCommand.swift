import ArgumentParser
import Faultline
import Foundation

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

    /// Runs the command the arguments name, after refusing a first word that names none (status 64, as for any
    /// usage error).
    static func main() async {
        let commands = configuration.subcommands.compactMap { $0.configuration.commandName }
        if let mistake = UnknownCommand(Array(CommandLine.arguments.dropFirst()), commands: commands) {
            FileHandle.standardError.write(Data("faultline: \(mistake.message)\n".utf8))
            Foundation.exit(ExitCode.validationFailure.rawValue)
        }
        await main(nil)
    }
}
