import Faultline
import FaultlineReporting
import FaultlineServe
import Foundation

/// An outage to end on cue: an ingest that holds its port but is down until the test calls `restart()`, and the
/// options of an app that sends to it, retrying within a fifth of a second.
enum OutageFixture {
    /// An ingest writing to `logs` with `publicKey`, started to take a port, then stopped, its port held.
    static func downIngest(logs: URL, publicKey: String = ServeFixture.publicKey) async throws -> RunningIngest {
        var settings = IngestConfiguration(logDirectory: logs, publicKey: publicKey)
        settings.port = 0
        let ingest = try await RunningIngest(settings)
        try await ingest.stop()
        return ingest
    }

    /// The options of an app logging to `logs` and sending to `ingest`, every event kept (no fingerprint limit).
    static func appOptions(logs: URL, sendingTo ingest: RunningIngest) throws -> Reporter.Options {
        var options = Reporter.Options(logDirectory: logs, environmentVariables: [:])
        options.dsn = try DSN(ingest.dsn)
        options.fingerprintLimit = nil
        options.configureDelivery = { $0.backoff = Backoff(initial: .milliseconds(50), maximum: .milliseconds(200)) }
        return options
    }
}
