import ArgumentParser
import FaultlineTriage
import Foundation

/// `faultline report --html`: a self-contained page of charts and tables, for sharing outside a terminal.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "A self-contained report to share: timeline, kinds, routes, codes, users and top issues.",
        discussion: "The page has no script and fetches nothing, so it opens offline. Filters apply as elsewhere.")

    /// The report's format; HTML is the one there is.
    enum Format: String, EnumerableFlag {
        case html
    }

    @OptionGroup var options: TriageOptions
    @OptionGroup var signals: SignalOptions

    @Flag(help: "The format to write.")
    var format: Format

    @Option(name: .shortAndLong, help: "Write the report to this file instead of standard output.")
    var output: String?

    func validate() throws {
        if options.json { throw ValidationError("--json does not apply to report: it writes --html.") }
    }

    func run() async throws {
        let report = HTMLReport(try await options.scan(signals: signals), generatedAt: Date().timeIntervalSince1970)
        let page = Data(report.html().utf8)
        guard let output else {
            FileHandle.standardOutput.write(page)
            return
        }
        do {
            try page.write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            FileHandle.standardError.write(
                Data("faultline: cannot write \(output): \(WriteFailure.reason(for: output, error))\n".utf8))
            throw ExitCode(1)
        }
    }
}
