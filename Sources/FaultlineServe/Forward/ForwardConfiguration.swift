import Faultline
import FaultlineRecords
import FaultlineReporting
import Foundation

/// What `faultline serve --forward` sends on, where, and how much it keeps while an upstream is away. Each upstream
/// gets a durable queue of its own, an ``Uploader`` outbox in `<log directory>/forward/<upstream>/`, with the
/// uploader's retries, backoff, rate limits and client reports.
package struct ForwardConfiguration: Sendable {
    /// The accepted projects and keys whose envelopes are forwarded, and their upstreams. Several routes may share an
    /// upstream, and so its queue.
    package var routes: [ForwardRoute]
    /// Whether accepted events are also written to the local log; `true` by default. Without it (`--forward-only`)
    /// an envelope is answered 200 once it is in the forward queue.
    package var storesLocally = true
    /// The most envelopes one upstream's queue holds; 200 000 by default (at 5 000 envelopes a second, 40 seconds of
    /// outage). Past it the oldest segment files of the queue are deleted (a segment holds at most a sixteenth of
    /// this cap and of ``maximumQueueBytes``, and 8 MiB), what waited in them counted as `cache_overflow`.
    package var maximumQueueCount = 200_000
    /// The most bytes of envelopes one upstream's queue holds; 1 GiB by default; past it as past
    /// ``maximumQueueCount``.
    package var maximumQueueBytes = 1024 * 1024 * 1024
    /// How long an envelope may wait in an upstream's queue; `nil` (the default) keeps it until it is forwarded or a
    /// cap deletes it. Past it, the oldest segment files are deleted whole, what waited in them reported upstream as
    /// `cache_overflow` (``DeliveryConfiguration/maxAge``), as Relay drops what waited longer than its limit.
    package var maximumAge: Duration?
    /// The most requests in flight to one upstream; 8 by default.
    package var maximumConcurrentRequests = 8
    /// Whether serve asks each upstream at start whether it takes the relay's DSN, and says what it found on
    /// ``IngestConfiguration/warnings`` (`faultline serve` does); `false` by default.
    package var checksUpstreams = false
    /// Whether the envelopes waiting in the queues of upstreams that no route names any more (an earlier `--forward`
    /// to another host, port or project) are forwarded to the one upstream when serve starts, re-addressed to it;
    /// `false` by default, when serve only names those queues on its output (`--drain-stranded-queues`).
    package var drainsStrandedQueues = false
    /// The wait before sending again after a network error, 502, 503 or 504: 1 second doubling up
    /// to 10 seconds, less up to half at random, so that an upstream back from an outage gets the queue within
    /// seconds.
    package var backoff = Backoff(initial: .seconds(1), multiplier: 2, maximum: .seconds(10), jitter: 0.5)
    /// The clock the queues' timers run on (``DeliveryConfiguration/clock``): the backoff, the upstreams' rate limits,
    /// expiry checks; a `ContinuousClock`. Tests hand it one they advance, to cross a rate limit without racing it.
    package var clock = ElapsedClock.continuous

    /// A configuration that forwards along `routes`; see the properties for the defaults.
    package init(routes: [ForwardRoute]) {
        self.routes = routes
    }

    /// The folder of `upstream`'s queue under `logDirectory`, named after its host, port, path and project, so that
    /// a new key for the same project keeps the queue.
    static func queueDirectory(for upstream: DSN, in logDirectory: URL) -> URL {
        LogLayout(logDirectory).forwardQueues.appendingPathComponent(queueName(of: upstream), isDirectory: true)
    }

    /// `sentry.example.com_443_42`: what names an upstream in the queue's folder, `/metrics` and `faultline stats`.
    static func queueName(of upstream: DSN) -> String {
        let port = upstream.port ?? (upstream.scheme == "https" ? 443 : 80)
        let path = upstream.pathPrefix.split(separator: "/").map { "_\($0)" }.joined()
        return "\(upstream.host)_\(port)\(path)_\(upstream.projectID)"
    }
}
