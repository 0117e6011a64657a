import Faultline
import FaultlineRecords
import Foundation

/// Where and how a reporter's records and a relay's envelopes are sent. Only the DSN and the outbox directory have no
/// default; they are set once, when the configuration is created (the reporter's, from its options), so that tuning the
/// rest (``Reporter/Options/configureDelivery``) never changes where envelopes go.
public struct DeliveryConfiguration: Sendable {
    /// The endpoint and key.
    public let dsn: DSN
    /// The outbox's directory, created when missing; envelopes stored there by an earlier run are sent too.
    public let outboxDirectory: URL
    /// The most envelopes the outbox holds; 1000 by default. Past it the oldest segment files are deleted (a segment
    /// holds at most a sixteenth of this limit and of ``maxOutboxBytes``), what waited in them counted as
    /// `cache_overflow`.
    public var maxOutboxCount = 1000
    /// The most bytes of envelopes the outbox holds; 32 MiB by default. Past it the oldest segment files are deleted,
    /// as past ``maxOutboxCount``.
    public var maxOutboxBytes = 32 * 1024 * 1024
    /// How long an envelope may wait in the outbox; `nil` (the default) keeps it until it is sent or a limit
    /// deletes it. Past the age, the outbox's oldest segment files are deleted whole (a segment holds envelopes
    /// stored within a 24th of the age), checked when sending starts, at most once a minute: what waited in them
    /// is counted in ``DeliveryStatistics/expired`` and reported as `cache_overflow`. A reporter's uploader
    /// takes `Reporter.Options.maxLogAge`, which removes its log's old files too.
    public var maxAge: Duration?
    /// The most lines of the log waiting to be sent that are indexed in memory, 10 000; the lines past them, an
    /// outage's backlog, are counted by file and read back from the log as the index drains, so memory does not
    /// grow with the backlog. Tests lower it to reach the backlog with fewer events.
    package var maxIndexedLines = 10_000
    /// How many stored envelopes start a send at once; 20 by default.
    public var batchSize = 20
    /// How long a stored envelope waits for others before it is sent anyway; 5 seconds by default.
    public var flushInterval = Duration.seconds(5)
    /// The most requests in flight at once, over reused connections; 4 by default.
    public var maxConcurrentRequests = 4
    /// The wait before sending again after a network error, 502, 503 or 504: 1 second, doubling up to
    /// 60 seconds, with up to half of each wait removed at random by default.
    public var backoff = Backoff(initial: .seconds(1), multiplier: 2, maximum: .seconds(60), jitter: 0.5)
    /// How long one request may take; 30 seconds by default.
    public var requestTimeout = Duration.seconds(30)
    /// The gzip level of request bodies, 1 (fastest) to 9 (smallest); 1 by default, as nginx's `gzip_comp_level`:
    /// level 1 takes a fraction of level 6's CPU for a body a few percent larger (Benchmarks/README.md). 0 sends
    /// bodies as they are, without `Content-Encoding`: for an endpoint on the same machine, where compressing costs
    /// both sides CPU and saves no bandwidth.
    public var compressionLevel: Int32 = 1
    /// Whether an endpoint's 401, 403 or 404 keeps the envelope instead of dropping it as `send_error`; `false` by
    /// default, as Sentry's SDKs drop it. A reporter and a relay set it: those statuses say the DSN is wrong (the
    /// key or the project), not the envelope, so everything waits, tried again with the ``backoff``, until the DSN
    /// is corrected; ``DeliveryStatistics/lastFailure`` says why.
    public var keepsEnvelopesWhenRefused = false
    /// Where the uploader says what becomes of its sends: a failure when it differs from the one before (a refused
    /// DSN as an error), a recovery, what it sent and dropped (at the debug level); none by default. A reporter
    /// sets its own (``Reporter/Options/debug``).
    public var diagnostics = Diagnostics.none
    /// The clock the uploader's timers run on (the batch interval, the backoff, rate limits, expiry checks, how
    /// often cursors and statistics are stored); a `ContinuousClock`. Tests hand it one they advance, to cross a
    /// rate limit or a backoff without waiting for it.
    package var clock = ElapsedClock.continuous

    /// Creates a configuration; see the properties for the defaults.
    package init(dsn: DSN, outboxDirectory: URL) {
        self.dsn = dsn
        self.outboxDirectory = outboxDirectory
    }
}
