import Foundation

/// Carries the requests of a reporter's uploader to the endpoint. The uploader decides what to send and what the answer
/// means; a transport only posts and reports the answer.
///
/// ``URLSessionEnvelopeTransport`` is the default, on every platform. On Linux, where URLSession is
/// FoundationNetworking over libcurl, the `FaultlineAsyncHTTPClient` library's transport costs about half the CPU
/// per request: use it in server-side apps.
///
/// An uploader cancels its transport's requests when it closes: give each uploader a transport of its own.
public protocol EnvelopeTransport: Sendable {
    /// Posts `request`; the endpoint's answer, or `nil` when none came (the connection failed, the request timed out
    /// or was cancelled).
    func send(_ request: EnvelopeRequest) async -> EnvelopeResponse?

    /// Cancels the requests in flight, including those still starting, and fails every later request: their
    /// ``send(_:)`` returns `nil` soon after, or at once. The uploader calls it when it closes.
    func cancelRequestsInFlight() async
}

/// One envelope on its way to the endpoint: a `POST` of its body with the envelope protocol's headers.
public struct EnvelopeRequest: Sendable {
    /// The DSN's envelope endpoint.
    public let url: URL
    /// `Content-Type`, `X-Sentry-Auth`, `User-Agent`, and `Content-Encoding: gzip` when the body is compressed.
    public let headerFields: [String: String]
    /// The envelope, gzip-compressed unless the uploader's `compressionLevel` is 0.
    public let body: Data
    /// How long the request may take before it counts as a network error.
    public let timeout: Duration

    /// Creates a request; see the properties.
    public init(url: URL, headerFields: [String: String], body: Data, timeout: Duration) {
        self.url = url
        self.headerFields = headerFields
        self.body = body
        self.timeout = timeout
    }
}

/// What the endpoint answered to an ``EnvelopeRequest``: the status and the headers the delivery policy reads.
public struct EnvelopeResponse: Sendable, Equatable {
    /// The HTTP status.
    public let statusCode: Int
    /// The `X-Sentry-Rate-Limits` header, when present.
    public let rateLimits: String?
    /// The `Retry-After` header, when present.
    public let retryAfter: String?
    /// The `X-Sentry-Error` header, when present: why a Sentry-compatible server refused the envelope.
    public let sentryError: String?

    /// Creates a response; see the properties.
    public init(statusCode: Int, rateLimits: String?, retryAfter: String?, sentryError: String? = nil) {
        self.statusCode = statusCode
        self.rateLimits = rateLimits
        self.retryAfter = retryAfter
        self.sentryError = sentryError
    }
}
