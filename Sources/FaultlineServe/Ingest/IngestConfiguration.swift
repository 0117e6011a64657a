import FaultlineRecords
import FaultlineReporting
import Foundation

/// How `faultline serve` listens, whom it accepts, and how much.
package struct IngestConfiguration: Sendable {
    /// The address to listen on; 127.0.0.1 by default, so nothing outside the machine reaches it.
    package var host = "127.0.0.1"
    /// The port; 0 lets the system choose one.
    package var port = 8000
    /// Where accepted events are written, in the local log format, and where the forward queues are kept.
    package var logDirectory: URL
    /// The most bytes the local log's files take together; `nil` (the default) for the log's own default of 64 MiB.
    /// Past it the oldest rotated files are deleted.
    package var maximumLogBytes: Int?
    /// How long the local log keeps an event and a forward queue an envelope; `nil` (the default) keeps them until
    /// the size caps delete them. Files past the age are removed whole, checked every minute (or every 24th of the
    /// age, when that is sooner); the forward queues' envelopes dropped by age are reported upstream as
    /// `cache_overflow`.
    package var maximumAge: Duration?
    /// The project id in the DSN and the request path.
    package var projectID = "1"
    /// The public key clients must send.
    package var publicKey: String
    /// The most bytes a request body may have, compressed and decompressed: 20 MiB.
    package var maximumRequestSize = 20 * 1024 * 1024
    /// The most bytes one item (an event) may have: 1 MiB, Sentry's limit for an event.
    package var maximumItemSize = 1024 * 1024
    /// How long a connection may send nothing, between requests or in the middle of one, before it is closed: 60
    /// seconds by default, nginx's limit for a request's header and body. A client that starts a request and stalls
    /// holds no connection for longer; a request being answered is never cut.
    package var idleTimeout = Duration.seconds(60)
    /// The most events the key may send per minute; `nil` (the default) for no limit. Past it, requests are
    /// answered 429 with `Retry-After` and `X-Sentry-Rate-Limits`.
    package var eventsPerMinute: Int?
    /// The clock the rate limit's minutes and the statistics' writes (one a second at most) run on: a
    /// `ContinuousClock` by default; tests hand one that moves only when they advance it.
    package var clock = ElapsedClock.continuous
    /// Where a line about each request goes (time, client, method, path, status, events or the refusal's reason,
    /// duration); `nil` (the default) for none.
    package var accessLog: (@Sendable (String) -> Void)?
    /// Where a line goes about what needs the operator, such as an upstream that refuses the relay's DSN; `nil` (the
    /// default) for none. `faultline serve` writes these on standard error.
    package var warnings: (@Sendable (String) -> Void)?
    /// Whether the secrets in events and transactions are replaced with `[Filtered]` before they are stored or
    /// forwarded, at least as Sentry's Relay scrubs what SDKs send: the values that sensitive names name anywhere in
    /// them, and the secrets inside every text (`Scrubber.scrubbedTexts(inJSON:)`); `true` by default.
    package var scrubsValues = true
    /// What the scrubbing takes for secrets: the defaults, as Relay applies them to a new project, unless set, with
    /// Sentry's settings by their names (`sensitiveFields`, `excludeFields`, `scrubIpAddresses`, `scrubDefaults`).
    package var scrubRules = ScrubRules() {
        didSet { scrubber = Scrubber(rules: scrubRules) }
    }
    /// A Relay PII config (a Sentry project's advanced data scrubbing rules) applied to every event and transaction
    /// before serve's own scrubbing, whether or not ``scrubsValues``; `nil` (the default) for none.
    package var piiConfig: PIIConfig?
    /// What scrubs with ``scrubRules``, made once.
    package private(set) var scrubber = Scrubber()
    /// Where accepted envelopes are forwarded, by project and key (`faultline serve --forward`); `nil` (the default)
    /// to keep them on this machine only. The routes' projects and keys are accepted besides ``projectID`` and
    /// ``publicKey``.
    package var forwarding: ForwardConfiguration?

    /// A configuration that writes to `logDirectory` and accepts `publicKey`.
    package init(logDirectory: URL, publicKey: String) {
        self.logDirectory = logDirectory
        self.publicKey = publicKey
    }

    /// The keys accepted for each project: ``publicKey`` for ``projectID``, and those of the forward routes.
    var acceptedKeys: [String: Set<String>] {
        var keys = [projectID: [publicKey] as Set]
        for route in forwarding?.routes ?? [] { keys[route.projectID, default: []].insert(route.publicKey) }
        return keys
    }

    /// Whether accepted events are written to the local log: unless forwarding is on and told not to.
    var storesLocally: Bool { forwarding?.storesLocally ?? true }

    /// The DSN clients use to send here. Its host is the address listened on, or, for one that stands for every
    /// address (`0.0.0.0`, `::`), which no client can send to, this machine's name; an IPv6 address is bracketed.
    package func dsn(port: Int) -> String {
        let reachable = ["0.0.0.0", "::", "[::]"].contains(host) ? ProcessInfo.processInfo.hostName : host
        let bracketed = reachable.contains(":") && !reachable.hasPrefix("[") ? "[\(reachable)]" : reachable
        return "http://\(publicKey)@\(bracketed):\(port)/\(projectID)"
    }
}
