import ArgumentParser

/// Benchmarks of the reporting pipeline: what capturing costs the caller, how fast events reach an endpoint, what an
/// outage costs in memory and disk, and what an error storm costs with and without the fingerprint limit. Each runs
/// Faultline beside a baseline in the same run.
@main
struct ReportingPipeline: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reporting-pipeline",
        abstract: "Benchmarks of capture, delivery, outages and storms, each beside a baseline.",
        subcommands: [
            CaptureLatency.self, DeliveryThroughput.self, OutageMemory.self, OutageRun.self, Storm.self,
            StormRun.self,
        ])
}
