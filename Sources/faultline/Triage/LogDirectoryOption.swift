import ArgumentParser
import FaultlineRecords
import Foundation

/// `--log-dir`: the directory a reporter or `faultline serve` wrote, which the triage commands read.
struct LogDirectoryOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The Reporter's log directory (Options.logDirectory); by default $\(LogLayout.environmentVariable), "
                + "else ./\(LogLayout.defaultPath)."))
    var logDir: String?

    /// The directory: `--log-dir`, else the environment's, else the default.
    var url: URL { LogLayout(path: logDir).url }
}
