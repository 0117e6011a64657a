import ArgumentParser
import FaultlineTriage
import Foundation

/// `faultline timeline`: a histogram of events over time, empty buckets shown.
struct TimelineCommand: AsyncParsableCommand, CommandWithExamples {
    static let configuration = CommandConfiguration(
        commandName: "timeline", abstract: "Events over time in equal buckets, with empty buckets shown.")

    static let examples: [(commandLine: String, purpose: String)] = [
        ("faultline timeline --since 6h", "Events over the last six hours, quiet buckets shown."),
        ("faultline timeline --bucket 5 --route \"/users/{id}\"", "One route, in buckets of five minutes."),
    ]

    @OptionGroup var options: TriageOptions

    @Option(
        help:
            "Bucket size in minutes; by default the smallest of 1, 5, 15, 60, 360, 1440 that gives ≤ 48 buckets, else as many days as do."
    )
    var bucket: Int?

    func validate() throws {
        if let bucket, bucket < 1 { throw ValidationError("--bucket is a number of minutes, 1 or more.") }
    }

    func run() async throws {
        // A window with a start runs to its end, else to now, so that a quiet end shows as empty buckets.
        let filter = try options.filter()
        let scan = try await options.scan()
        // Events of a clock that runs ahead of this one stay in: the window runs to now or to its last event.
        let end = filter.until ?? filter.since.map { _ in max(Date().timeIntervalSince1970, (scan.lastSeen ?? 0) + 1) }
        let report: TimelineReport
        do {
            report =
                if let bucket {
                    try TimelineReport(scan, bucketMinutes: bucket, from: filter.since, to: end)
                } else {
                    TimelineReport(scan, from: filter.since, to: end)
                }
        } catch {
            throw ValidationError(error.description)
        }
        try options.print(report) { report.text(style: $0) }
    }
}
