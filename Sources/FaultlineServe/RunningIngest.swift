import Foundation
import LoopbackPorts

/// An ingest running in this process until ``stop()``: what `faultline-demo` embeds and the tests start. It can be
/// stopped and started again on the same port, to play an outage.
package actor RunningIngest {
    private let configuration: IngestConfiguration
    private var task: Task<Void, any Error>?
    /// Its port while it is stopped: connecting is refused, and no other server in this machine is given it meanwhile
    /// (another test's, which would answer in its place).
    private var heldPort: ClosedPort?
    /// The port it listens on; chosen by the system at the first start when the configuration's port is 0.
    package nonisolated let port: Int

    /// Starts an ingest with `configuration` and waits until it accepts connections.
    package init(_ configuration: IngestConfiguration) async throws {
        let (task, port) = try await Self.start(configuration)
        var settled = configuration
        settled.port = port
        self.configuration = settled
        self.task = task
        self.port = port
    }

    /// The DSN that sends here.
    package nonisolated var dsn: String { configuration.dsn(port: port) }

    /// Stops it gracefully, closing its log, and holds its port until ``restart()``; does nothing when it is stopped.
    package func stop() async throws {
        guard let running = task else { return }
        running.cancel()
        defer {
            task = nil
            heldPort = try? ClosedPort(holding: port)
        }
        try await running.value
    }

    /// Starts it again on the same port, after ``stop()``.
    package func restart() async throws {
        guard task == nil else { return }
        heldPort?.release()
        heldPort = nil
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
