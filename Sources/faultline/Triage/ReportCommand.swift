import ArgumentParser
import FaultlineTriage
import Foundation

/// `faultline report`: a self-contained page of charts and tables, for sharing outside a terminal, or its data as
/// JSON.
struct ReportCommand: AsyncParsableCommand, CommandWithExamples {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "A self-contained report to share: timeline, kinds, routes, codes, users and top issues.",
        discussion: """
            The page (--html, the default) has no script and fetches nothing, so it opens offline; --json writes \
            what it shows as data. Filters apply as elsewhere.
            """)

    static let examples: [(commandLine: String, purpose: String)] = [
        (
            "faultline report --since 1d -o incident.html",
            "A page to share: the last day, with its timeline and top issues."
        ),
        ("faultline report --json", "The same numbers as JSON."),
    ]

    @OptionGroup var options: TriageOptions
    @OptionGroup var signals: SignalOptions

    @Flag(help: "Write an HTML page (the default).")
    var html = false

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "Write the report to this file instead of standard output (- for standard output).",
            discussion: "A regular file is replaced whole; a symbolic link is written through; a FIFO or device is "
                + "written, never replaced."))
    var output: String?

    func validate() throws {
        if html && options.json { throw ValidationError("Choose one of --html and --json.") }
    }

    func run() async throws {
        let report = HTMLReport(try await options.scan(signals: signals), generatedAt: Date().timeIntervalSince1970)
        let contents = options.json ? try JSONOutput.encode(report) : Data(report.html().utf8)
        guard let output else { return try StandardOutput.write(contents) }
        do {
            try OutputFile.write(contents, to: output)
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure(
                message: "cannot write \(output): \(WriteFailure.reason(for: output, error))", status: .failed)
        }
    }
}
