import Foundation

/// One envelope on its way to the endpoint: a `POST` of a gzip-compressed body with the envelope protocol's headers.
public struct EnvelopeRequest: Sendable {
    /// The DSN's envelope endpoint.
    public let url: URL
    /// `Content-Type`, `Content-Encoding`, `X-Sentry-Auth` and `User-Agent`.
    public let headerFields: [String: String]
    /// The gzip-compressed envelope.
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
