import Foundation

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
