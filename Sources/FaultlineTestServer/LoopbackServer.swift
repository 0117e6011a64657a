import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// Runs a Hummingbird router on 127.0.0.1 for as long as a body runs: the seed servers, and endpoints tests add.
package enum LoopbackServer {
    /// Starts `router` on 127.0.0.1 at `port` (0: a port the OS chooses), runs `body` with the server's base URL,
    /// and stops the server when `body` returns or throws.
    ///
    /// A given port that is in use is tried again for up to 2 seconds: a test that released a `ClosedPort` to start
    /// a server on it can find it taken for a moment, as the local end of another test's connection.
    package static func run<T: Sendable>(
        named name: String, router: Router<BasicRequestContext>, port: Int,
        _ body: @Sendable (URL) async throws -> T
    ) async throws -> T {
        let deadline = ContinuousClock.now + .seconds(2)
        while true {
            do {
                return try await start(named: name, router: router, port: port, body)
            } catch let failure as LoopbackServerStartFailure
                where port != 0 && failure.isAddressInUse && ContinuousClock.now < deadline
            {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    private static func start<T: Sendable>(
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

        let services = ServiceGroup(services: [application], logger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { portContinuation.finish() }
                try await services.run()
            }
            defer { group.cancelAll() }
            var portIterator = ports.makeAsyncIterator()
            guard let reportedPort = await portIterator.next(), let port = reportedPort,
                let baseURL = URL(string: "http://127.0.0.1:\(port)")
            else {
                do {
                    try await group.next()
                } catch {
                    throw LoopbackServerStartFailure(server: name, cause: error)
                }
                throw LoopbackServerStartFailure(server: name, cause: nil)
            }
            let result: Result<T, any Error>
            do {
                result = .success(try await body(baseURL))
            } catch {
                result = .failure(error)
            }
            // Stopped gracefully first: cancelling a Hummingbird server while a connection it accepted waits to be
            // served drops that connection's NIOAsyncChannel unfinished, which traps (seen in a CI run; apple/swift-nio
            // #3481). A graceful shutdown stops accepting and serves what was accepted; a request still held after a
            // second (the tests' hung endpoints) is cancelled with the rest.
            await services.triggerGracefulShutdown()
            group.addTask { try await Task.sleep(for: .seconds(1)) }
            _ = try? await group.next()
            return try result.get()
        }
    }
}

/// A loopback server stopped before it reported the port it listens on.
struct LoopbackServerStartFailure: Error, CustomStringConvertible {
    let server: String
    /// Why it stopped, when it said.
    let cause: (any Error)?

    /// Whether its port was in use.
    var isAddressInUse: Bool { (cause as? IOError)?.errnoCode == EADDRINUSE }

    var description: String {
        "the \(server) stopped before it was listening on 127.0.0.1\(cause.map { ": \($0)" } ?? "")"
    }
}
