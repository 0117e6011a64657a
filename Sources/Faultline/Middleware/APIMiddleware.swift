import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The rest of the chain after a middleware: the next middleware, and at the end the network transfer, response
/// classification and decoding.
public typealias APIMiddlewareNext<Value: Sendable> =
    @Sendable (URLRequest, RequestContext) async throws(RequestFailure)
    -> APIResponse<Value>

/// A stage of the client's request pipeline: it sees every request on its way out and every outcome, success or
/// classified failure, on its way back.
///
/// A middleware may change the request, call `next` more than once (to retry or replay), or turn one outcome into
/// another. Classification happens at the end of the chain, so every middleware sees typed failures and none of
/// them can switch another off. Middlewares run in the order they are configured, the first one outermost.
public protocol APIMiddleware: Sendable {
    /// Handles one request.
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - context: The request's context; pass it on, with ``RequestContext/attempt`` increased for a resend.
    ///   - next: The rest of the chain.
    /// - Returns: The decoded response.
    /// - Throws: A classified ``RequestFailure``.
    func intercept<Value: Sendable>(
        _ request: URLRequest, context: RequestContext, next: APIMiddlewareNext<Value>
    ) async throws(RequestFailure) -> APIResponse<Value>
}
