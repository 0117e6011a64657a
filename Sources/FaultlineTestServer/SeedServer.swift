import Foundation
import Hummingbird
import Logging

/// A loopback HTTP server that reproduces the server contracts of the seed posts: seed 000's Boleto envelope
/// (`/boleto`), seed 001's `400 E05` expiry (`/e05`), seeds 002/004's plain `401` (`/plain`), and failure
/// fixtures (`/flaky`, `/malformed`, `/slow`, `/proxy`, `/echo`, `/bench/item`, `/health`).
///
/// Every call of ``run(_:)`` starts its own instance with its own ``SeedServerState``, so tests can run in parallel.
public enum SeedServer {
    /// Starts a server on 127.0.0.1 at a port chosen by the OS, runs `body` with it, and stops the server when
    /// `body` returns or throws.
    public static func run<T: Sendable>(_ body: @Sendable (RunningSeedServer) async throws -> T) async throws -> T {
        let state = SeedServerState()
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int?.self)
        var logger = Logger(label: "FaultlineTestServer")
        logger.logLevel = .critical
        let application = Application(
            router: SeedRouter.make(state: state),
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port)
                portContinuation.finish()
            },
            logger: logger)

        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { portContinuation.finish() }
                try await application.runService(gracefulShutdownSignals: [])
            }
            defer { group.cancelAll() }
            var portIterator = ports.makeAsyncIterator()
            guard let reportedPort = await portIterator.next(), let port = reportedPort,
                let baseURL = URL(string: "http://127.0.0.1:\(port)")
            else {
                try await group.next()
                throw SeedServerStartFailure()
            }
            return try await body(RunningSeedServer(baseURL: baseURL, state: state))
        }
    }
}
