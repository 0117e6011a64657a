import HTTPTypes
import Hummingbird

/// Records the trace headers of every request the seed server receives (but `/bench/`'s), as a backend that continues its callers'
/// traces would read them, so that tests compare them with the trace of the client's events and spans.
struct TraceRecorder: RouterMiddleware {
    typealias Context = BasicRequestContext

    let state: SeedServerState

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        // The benchmark's route is left out: recording costs the server an actor hop, which would count as the
        // client's overhead.
        if let sentryTrace = request.headers[Self.sentryTrace], !request.uri.path.hasPrefix("/bench/") {
            await state.record(
                ReceivedTrace(
                    path: request.uri.path, sentryTrace: sentryTrace, baggage: request.headers[Self.baggage],
                    traceparent: request.headers[Self.traceparent]))
        }
        return try await next(request, context)
    }

    private static let sentryTrace = HTTPField.Name("sentry-trace")!
    private static let baggage = HTTPField.Name("baggage")!
    private static let traceparent = HTTPField.Name("traceparent")!
}

/// The trace headers of one request the seed server received.
package struct ReceivedTrace: Hashable, Sendable {
    /// The request's path, such as `/boleto/users/7`.
    package let path: String
    /// Its `sentry-trace` header: `{trace id}-{span id}[-{sampled}]`.
    package let sentryTrace: String
    /// Its `baggage` header, if it had one.
    package let baggage: String?
    /// Its `traceparent` header, if it had one.
    package let traceparent: String?

    /// The trace id `sentryTrace` names.
    package var traceID: String { String(sentryTrace.prefix(32)) }
    /// The span id `sentryTrace` names: the client's span of the request, the parent of the server's.
    package var spanID: String { String(sentryTrace.dropFirst(33).prefix(16)) }
}
