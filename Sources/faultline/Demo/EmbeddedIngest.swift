import FaultlineServe
import Foundation

/// The demo's `faultline serve`, in this process on loopback, which the demo stops and starts again to play an
/// outage: the same port, the same log.
actor EmbeddedIngest {
    private var configuration: IngestConfiguration
    private var task: Task<Void, any Error>?
    /// The DSN that sends here, fixed at the first start.
    nonisolated let dsn: String

    /// Starts an ingest writing to `logs` on a port the system chooses and waits until it listens.
    init(logs: URL, publicKey: String) async throws {
        configuration = IngestConfiguration(logDirectory: logs, publicKey: publicKey)
        configuration.port = 0
        let (task, port) = try await Self.start(configuration)
        self.task = task
        configuration.port = port
        dsn = configuration.dsn(port: port)
    }

    /// Stops it, closing its log.
    func stop() async throws {
        task?.cancel()
        try await task?.value
        task = nil
    }

    /// Starts it again on the same port.
    func restart() async throws {
        task = try await Self.start(configuration).task
    }

    private static func start(_ configuration: IngestConfiguration) async throws -> (
        task: Task<Void, any Error>, port: Int
    ) {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let task = Task {
            defer { continuation.finish() }
            try await IngestServer.run(configuration) { continuation.yield($0) }
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            try await task.value
            throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "the ingest did not start"])
        }
        return (task, port)
    }
}
