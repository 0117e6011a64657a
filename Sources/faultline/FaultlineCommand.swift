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
            SummaryCommand.self, IncidentCommand.self, IssuesCommand.self, ShowCommand.self, EventsCommand.self,
            RoutesCommand.self, TagsCommand.self, TimelineCommand.self, TailCommand.self,
            StatsCommand.self, ReportCommand.self, WatchCommand.self, ForgetCommand.self,
            ServeCommand.self,
        ],
        defaultSubcommand: SummaryCommand.self)

    /// Runs the command the arguments name, after refusing a first word that names none (status 64, as for any
    /// usage error) and giving values that start with a dash to their options (``DashedValue``); a
    /// ``CommandFailure`` is reported in one line with its status, anything else as ArgumentParser reports it.
    static func main() async {
        let arguments = DashedValue.joined(Array(CommandLine.arguments.dropFirst()))
        let commands = configuration.subcommands.compactMap { $0.configuration.commandName }
        do {
            if let mistake = UnknownCommand(arguments, commands: commands) {
                throw CommandFailure(message: mistake.message, status: .usage)
            }
            var command = try parseAsRoot(arguments)
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch let failure as CommandFailure {
            failure.report()
            Foundation.exit(failure.status.rawValue)
        } catch {
            // A subcommand's help (a request that ends with success), with its examples after it.
            if exitCode(for: error) == .success,
                let command = HelpExamples.requested(in: arguments, among: configuration.subcommands)
            {
                print(helpMessage(for: command) + "\n" + HelpExamples.section(for: command), terminator: "")
                Foundation.exit(0)
            }
            exit(withError: error)
        }
    }
}
