import ArgumentParser
import FaultlineTriage

/// `faultline timeline`: a histogram of events over time, empty buckets shown.
struct TimelineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline", abstract: "Events over time in equal buckets, with empty buckets shown.")

    @OptionGroup var options: TriageOptions

    @Option(help: "Bucket size in minutes; by default the smallest of 1, 5, 15, 60, 360, 1440 that gives ≤ 48 buckets.")
    var bucket: Int?

    func validate() throws {
        if let bucket, bucket < 1 { throw ValidationError("--bucket is a number of minutes, 1 or more.") }
    }

    func run() async throws {
        let report = TimelineReport(try await options.scan(), bucketMinutes: bucket)
        try options.print(report) { report.text(style: $0) }
    }
}
