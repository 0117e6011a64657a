import FaultlineRecords
import FaultlineReporting
import Foundation

#if AsyncHTTPClient
    import FaultlineAsyncHTTPClient
#endif

/// One upstream of `faultline serve --forward` and its durable queue: an ``Uploader`` whose outbox is
/// `<log directory>/forward/<name>/`, sending with the upstream's DSN.
struct Upstream: Sendable {
    /// The queue's name: the upstream's host, port, path and project (`sentry.example.com_443_42`).
    let name: String
    let dsn: DSN
    let uploader: Uploader

    /// Opens the queue of `dsn` under `logDirectory`; what an earlier run left in it is sent first.
    init(dsn: DSN, logDirectory: URL, configuration: ForwardConfiguration) throws {
        var settings = DeliveryConfiguration(
            dsn: dsn, outboxDirectory: ForwardConfiguration.queueDirectory(for: dsn, in: logDirectory))
        settings.maxOutboxCount = configuration.maximumQueueCount
        settings.maxOutboxBytes = configuration.maximumQueueBytes
        settings.maxAge = configuration.maximumAge
        settings.maxConcurrentRequests = configuration.maximumConcurrentRequests
        settings.backoff = configuration.backoff
        settings.clock = configuration.clock
        // An upstream that refuses the relay's key or project is misconfigured: nothing is dropped for it.
        settings.keepsEnvelopesWhenRefused = true
        // A relay sends each envelope as soon as it is queued, without waiting for a batch.
        settings.batchSize = 1
        settings.flushInterval = .milliseconds(100)
        // To an upstream on the same machine, gzip would cost both ends CPU (5% of the relay's) and save no bandwidth.
        if Self.isLoopback(dsn.host) { settings.compressionLevel = 0 }
        name = ForwardConfiguration.queueName(of: dsn)
        self.dsn = dsn
        uploader = try Uploader(configuration: settings, transport: Self.transport(settings))
    }

    /// Queues `envelope` for the upstream, with the upstream's DSN in its header.
    ///
    /// - Returns: Whether it is in the queue: `false` when the upstream rate-limits its category (counted as
    ///   `ratelimit_backoff`), when it holds no item Sentry's rate limits name, or when it could not be written
    ///   (counted as `internal_sdk_error`).
    func forward(_ envelope: Envelope) async -> Bool {
        await uploader.enqueue(envelope.addressed(to: dsn))
    }

    /// Whether `host` names this machine: `localhost`, 127.0.0.0/8 or `::1`.
    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }

    /// AsyncHTTPClient when the package is built with its `AsyncHTTPClient` trait (scripts/install, scripts/test and
    /// scripts/bench do): on Linux it costs about half the CPU per request of URLSession, the default otherwise.
    private static func transport(_ settings: DeliveryConfiguration) -> (any EnvelopeTransport)? {
        #if AsyncHTTPClient
            AsyncHTTPClientEnvelopeTransport(maximumConnections: settings.maxConcurrentRequests)
        #else
            nil
        #endif
    }
}
