import ArgumentParser
import FaultlineTriage
import Foundation

extension IssuesReport.Order: ExpressibleByArgument {}

/// `faultline issues`: one row per issue (events grouped by fingerprint).
struct IssuesCommand: AsyncParsableCommand, CommandWithExamples {
    static let configuration = CommandConfiguration(
        commandName: "issues", abstract: "One row per issue: kind, route, codes, events, users, last seen, trend.")

    static let examples: [(commandLine: String, purpose: String)] = [
        ("faultline issues --sort users", "Every issue, those that hit the most users first."),
        ("faultline issues --new --since 30m", "The issues first seen in the last half hour."),
        ("faultline issues --since 7d --csv > issues.csv", "The week's issues for a spreadsheet."),
    ]

    @OptionGroup var options: TriageOptions

    @Option(help: "Order rows by events, users or recent.")
    var sort: IssuesReport.Order = .events

    @Flag(help: "Only issues first seen in the window (--since, 1h by default); see 'faultline incident --help'.")
    var new = false

    @Flag(help: "Only issues whose rate in the window is --spike-factor times their baseline's.")
    var spiking = false

    @Flag(help: "Only issues in the newest release, not in the one before, and in an older one.")
    var regressed = false

    @Flag(help: "Print CSV (RFC 4180) with a header row, one row per issue.")
    var csv = false

    @OptionGroup var signals: SignalOptions
    @OptionGroup var limit: LimitOption

    /// Whether only issues with a signal are listed.
    private var filtering: Bool { new || spiking || regressed }

    /// The window's start when --since is not given: the last hour when filtering by signals.
    private var defaultSince: String? { filtering ? "1h" : nil }

    func validate() throws {
        if options.json, csv { throw ValidationError("Choose one of --json and --csv.") }
        _ = try options.window(defaultSince: defaultSince)
    }

    func run() async throws {
        var report = IssuesReport(try await options.scan(signals: signals, defaultSince: defaultSince), order: sort)
        if filtering {
            report = report.keeping { signals in
                (new && signals.isNew) || (spiking && signals.isSpiking) || (regressed && signals.isRegressed)
            }
        }
        if let count = limit.limit { report = report.limited(to: count) }
        if csv {
            try StandardOutput.write(Data(report.csv().utf8))
        } else {
            try options.print(report) { report.text(style: $0) }
        }
    }
}
