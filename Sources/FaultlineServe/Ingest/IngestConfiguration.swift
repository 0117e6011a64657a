import Foundation

/// How `faultline serve` listens, whom it accepts, and how much.
public struct IngestConfiguration: Sendable {
    /// The address to listen on; 127.0.0.1 by default, so nothing outside the machine reaches it.
    public var host = "127.0.0.1"
    /// The port; 0 lets the system choose one.
    public var port = 8000
    /// Where accepted events are written, in the local log format.
    public var logDirectory: URL
    /// The project id in the DSN and the request path.
    public var projectID = "1"
    /// The public key clients must send.
    public var publicKey: String
    /// The most bytes a request body may have, compressed and decompressed: 20 MiB.
    public var maximumRequestSize = 20 * 1024 * 1024
    /// The most bytes one item (an event) may have: 1 MiB, Sentry's limit for an event.
    public var maximumItemSize = 1024 * 1024
    /// The most events the key may send per minute; `nil` (the default) for no limit. Past it, requests are
    /// answered 429 with `Retry-After` and `X-Sentry-Rate-Limits`.
    public var eventsPerMinute: Int?
    /// Where a line about each request goes (time, client, method, path, status, events or the refusal's reason,
    /// duration); `nil` (the default) for none.
    public var accessLog: (@Sendable (String) -> Void)?
    /// Whether the secrets inside the events' texts (messages, exception values, breadcrumbs, contexts, `extra`,
    /// request data: every string value) are replaced with `[Filtered]` before an event is stored, by the default
    /// `ScrubRules.valuePatterns`, as Sentry's Relay scrubs what SDKs send; `true` by default.
    public var scrubsValues = true

    /// A configuration that writes to `logDirectory` and accepts `publicKey`.
    public init(logDirectory: URL, publicKey: String) {
        self.logDirectory = logDirectory
        self.publicKey = publicKey
    }

    /// The DSN clients use to send here.
    public func dsn(port: Int) -> String {
        "http://\(publicKey)@\(host):\(port)/\(projectID)"
    }
}
