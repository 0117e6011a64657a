import Foundation
import Hummingbird

/// A loopback HTTP server that reproduces the server contracts of the seed posts: seed 000's Boleto envelope
/// (`/boleto`), seed 001's `400 E05` expiry (`/e05`), seeds 002/004's plain `401` (`/plain`), and failure
/// fixtures (`/flaky`, `/malformed`, `/slow`, `/proxy`, `/echo`, `/bench/item`, `/health`).
///
/// Every call of ``run(_:)`` starts its own instance with its own ``SeedServerState``, so tests can run in parallel.
package enum SeedServer {
    /// Starts a server on 127.0.0.1 at a port chosen by the OS, runs `body` with it, and stops the server when
    /// `body` returns or throws.
    package static func run<T: Sendable>(_ body: @Sendable (RunningSeedServer) async throws -> T) async throws -> T {
        let state = SeedServerState()
        return try await LoopbackServer.run(named: "seed server", router: SeedRouter.make(state: state), port: 0) {
            try await body(RunningSeedServer(baseURL: $0, state: state))
        }
    }
}

/// A seed server that is accepting requests, as ``SeedServer/run(_:)`` hands it to its body.
package struct RunningSeedServer: Sendable {
    /// `http://127.0.0.1:<port>`, with the port the OS chose.
    package let baseURL: URL
    /// The server's tokens and counters, to drive and inspect while it runs.
    package let state: SeedServerState
}

/// Assembles every route of the seed server around one ``SeedServerState``.
enum SeedRouter {
    static func make(state: SeedServerState) -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: FallbackMiddleware())
        router.add(middleware: TraceRecorder(state: state))
        BoletoRoutes(state: state).add(to: router)
        E05Routes(state: state).add(to: router)
        PlainRoutes(state: state).add(to: router)
        FlakyRoutes(state: state).add(to: router)
        MalformedRoutes().add(to: router)
        MiscRoutes().add(to: router)
        EchoingRoutes().add(to: router)
        return router
    }
}

/// Gives the requests no route answers a proper body: an unmatched path or method gets `404` NOT_FOUND_END_POINT
/// and a handler that throws gets `500` INTERNAL_SERVER_ERROR, both as Boleto envelopes.
struct FallbackMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            return try .boletoFailure(.endpointNotFound)
        } catch {
            return try .boletoFailure(.internalServerError)
        }
    }
}
