import Foundation
import Hummingbird
import Logging

/// Runs a Hummingbird router on 127.0.0.1 for as long as a body runs: the seed servers, and endpoints tests add.
public enum LoopbackServer {
    /// Starts `router` on 127.0.0.1 at `port` (0: a port the OS chooses), runs `body` with the server's base URL,
    /// and stops the server when `body` returns or throws.
    public static func run<T: Sendable>(
        named name: String, router: Router<BasicRequestContext>, port: Int,
        _ body: @Sendable (URL) async throws -> T
    ) async throws -> T {
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int?.self)
        var logger = Logger(label: "FaultlineTestServer")
        logger.logLevel = .critical
        let application = Application(
            router: router,
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: port)),
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
                throw LoopbackServerStartFailure(server: name)
            }
            return try await body(baseURL)
        }
    }
}
