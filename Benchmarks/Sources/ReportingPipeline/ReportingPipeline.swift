import ArgumentParser

/// Benchmarks of the reporting pipeline: what capturing costs the caller, how fast events reach an endpoint, and
/// what an outage costs in memory and disk. Each runs Faultline beside a baseline in the same run.
@main
struct ReportingPipeline: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reporting-pipeline",
        abstract: "Benchmarks of capture, delivery and outages, each beside a baseline.",
        subcommands: [CaptureLatency.self, DeliveryThroughput.self, OutageMemory.self, OutageRun.self])
}
