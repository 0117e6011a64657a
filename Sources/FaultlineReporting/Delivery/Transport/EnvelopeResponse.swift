/// What the endpoint answered to an ``EnvelopeRequest``: the status and the headers the delivery policy reads.
public struct EnvelopeResponse: Sendable, Equatable {
    /// The HTTP status.
    public let statusCode: Int
    /// The `X-Sentry-Rate-Limits` header, when present.
    public let rateLimits: String?
    /// The `Retry-After` header, when present.
    public let retryAfter: String?

    /// Creates a response; see the properties.
    public init(statusCode: Int, rateLimits: String?, retryAfter: String?) {
        self.statusCode = statusCode
        self.rateLimits = rateLimits
        self.retryAfter = retryAfter
    }
}
