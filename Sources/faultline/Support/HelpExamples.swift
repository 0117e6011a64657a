import ArgumentParser

/// A command whose `--help` ends with examples: command lines a user starts from, each with what it does.
protocol CommandWithExamples: ParsableCommand {
    /// Command lines, each with what it does.
    static var examples: [(commandLine: String, purpose: String)] { get }
}

/// The examples that end a subcommand's help: ArgumentParser's help has no section after the options, so
/// `faultline` prints the help and then them when the arguments ask for help.
enum HelpExamples {
    /// The subcommand `arguments` (without the program's name) ask help for, `faultline issues --help`,
    /// `faultline issues -h` or `faultline help issues`, when it has examples.
    static func requested(in arguments: [String], among commands: [any ParsableCommand.Type])
        -> (any CommandWithExamples.Type)?
    {
        let asksForHelp = arguments.first == "help" || arguments.contains("--help") || arguments.contains("-h")
        guard asksForHelp else { return nil }
        let words = arguments.first == "help" ? arguments.dropFirst() : arguments[...]
        guard let name = words.first else { return nil }
        let command = commands.first { $0.configuration.commandName == name }
        return command as? any CommandWithExamples.Type
    }

    /// The section for `command`: a heading, then each command line with what it does below it.
    static func section(for command: any CommandWithExamples.Type) -> String {
        "EXAMPLES:\n"
            + command.examples.map { "  \($0.commandLine)\n        \($0.purpose)\n" }.joined(separator: "\n")
    }
}
