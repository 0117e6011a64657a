import ArgumentParser
import FaultlineTriage

/// `faultline tags [id]`: each tag's top values, with counts and shares, for all events or one issue's.
struct TagsCommand: AsyncParsableCommand, CommandWithExamples {
    static let configuration = CommandConfiguration(
        commandName: "tags",
        abstract: "Each tag's most frequent values, with their counts and shares of the events, or of one issue's.")

    static let examples: [(commandLine: String, purpose: String)] = [
        ("faultline tags --since 1h", "How the last hour's events spread over every tag's values."),
        ("faultline tags 243e3b92 --key device.model", "Which device models one issue hits, every value listed."),
        ("faultline tags --where release=app@2.* --json", "The tags of one release line's events, as JSON."),
    ]

    @Argument(help: "An issue's id from 'faultline issues', or enough of its start, for that issue's events only.")
    var id: String?

    @OptionGroup var options: TriageOptions

    @Option(help: "Only this tag, with all its values; repeatable.")
    var key: [String] = []

    @Option(help: "How many of each tag's values to list, the most frequent.")
    var values = 10

    func validate() throws {
        if values < 1 { throw ValidationError("--values is a number of values, 1 or more.") }
    }

    func run() async throws {
        var filter = try options.filter()
        var issueID: String?
        if let id {
            let scan = try await options.scan()
            do {
                let issue = try scan.issue(id)
                filter.grouping = issue.fingerprint
                issueID = scan.shortID(of: issue)
            } catch {
                throw CommandFailure(message: "\(error)", status: .failed)
            }
        }
        var distribution = TagDistribution(files: try options.logFiles(), filter: filter)
        if !key.isEmpty { distribution.keep(Set(key)) }
        TriageOptions.name(distribution.unreadableFiles)
        let report = TagsReport(distribution, issue: issueID, valuesListed: key.isEmpty ? values : Int.max)
        try options.print(report) { report.text(style: $0) }
    }
}
