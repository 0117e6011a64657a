import Hummingbird

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
