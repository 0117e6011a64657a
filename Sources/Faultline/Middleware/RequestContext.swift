import Foundation

/// What a request is, independent of its outcome: it travels with the request through the middleware chain and
/// with every failure, so a failure always says which request, on which route, at which attempt.
public struct RequestContext: Hashable, Sendable, CustomStringConvertible {
    /// An identifier for the logical request, the same across its retries and replays (32 lowercase hex digits).
    public let requestID: String
    /// The request method.
    public let method: HTTPMethod
    /// The route template, such as `/users/{id}`: the same for every user, so it groups well.
    public let route: String
    /// The URL the request is sent to.
    public let url: URL
    /// Whether the request may be retried automatically: its method is idempotent, or it opted in.
    public let allowsRetry: Bool
    /// The attempt number, starting at 1; retries and replays after a token refresh increase it.
    public var attempt: Int
    /// The HTTP status of the response, once one arrived.
    public var statusCode: Int?
    /// The code that sent the request, when the HTTP stack knows it (``APIClient`` does).
    public let callSite: CallSite?

    /// Creates a context for the first attempt of a request.
    public init(
        requestID: String, method: HTTPMethod, route: String, url: URL, allowsRetry: Bool, callSite: CallSite? = nil
    ) {
        self.requestID = requestID
        self.method = method
        self.route = route
        self.url = url
        self.allowsRetry = allowsRetry
        self.attempt = 1
        self.statusCode = nil
        self.callSite = callSite
    }

    /// The method and route template, such as `GET /users/{id}`.
    public var endpoint: String { "\(method) \(route)" }

    public var description: String { "\(endpoint) (attempt \(attempt), request \(requestID.prefix(8)))" }
}
