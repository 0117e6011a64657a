import Foundation
import Hummingbird

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
        return try await LoopbackServer.run(named: "seed server", router: SeedRouter.make(state: state), port: 0) {
            try await body(RunningSeedServer(baseURL: $0, state: state))
        }
    }
}
