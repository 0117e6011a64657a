import Faultline
import FaultlineRecords
import Foundation

extension Reporter {
    /// How a reporter captures, stores and sends events. Every setting has a default.
    public struct Options: Sendable {
        /// Where the local log (`events.jsonl`) is written.
        public var logDirectory: URL
        /// Where to send events: by default the `SENTRY_DSN` environment variable's, or `nil`, which keeps them in
        /// the local log only. The one place that says where events go: ``configureDelivery`` tunes how they are
        /// sent, never where.
        public var dsn: DSN? {
            didSet { unreadableEnvironmentDSN = nil }
        }
        /// Why the `SENTRY_DSN` found could not be read, unless ``dsn`` was set since: the reporter says it as an
        /// error diagnostic and keeps events in the local log only.
        private(set) var unreadableEnvironmentDSN: DSN.ParseError?
        /// Whether the reporter captures at all; `true` by default (Sentry's `enabled`). A reporter created with
        /// `false` opens no file, captures, counts and sends nothing, and returns `nil` for every capture: the switch
        /// for builds or tests that must not report, with the code that reports left in place.
        public var enabled = true
        /// Whether the reporter says what it does, through ``diagnosticHandler`` (Sentry's `debug`): the DSN it sends
        /// to, every send, every event dropped and why. `false` by default, when only errors are said: a DSN that
        /// cannot be read or that the server refuses, a log that cannot be written. Misconfiguration is never silent.
        public var debug = false
        /// The least level said when ``debug`` is on; `.debug` (everything) by default (Sentry's `diagnosticLevel`).
        public var diagnosticLevel = Diagnostic.Level.debug
        /// What receives the diagnostics: `nil` (the default) writes each on a line of standard error
        /// (`[Faultline] error: …`). The `FaultlineLogging` library's `sendDiagnostics(to:)` hands them to a
        /// swift-log `Logger`; `{ _ in }` silences even errors.
        public var diagnosticHandler: (@Sendable (Diagnostic) -> Void)?

        /// The diagnostics these options ask for.
        var diagnostics: Diagnostics {
            Diagnostics(
                minimumLevel: debug ? diagnosticLevel : .error,
                handler: diagnosticHandler ?? Diagnostics.standardError)
        }
        /// Tunes how events are sent to ``dsn`` (batching, backoff, timeouts, compression, the outbox's limits),
        /// starting from ``DeliveryConfiguration``'s defaults for ``dsn`` and ``outboxDirectory``, which it cannot
        /// change; leaves the defaults by default. Not called when ``dsn`` is `nil`.
        ///
        /// ```swift
        /// options.configureDelivery = { $0.batchSize = 50; $0.flushInterval = .seconds(10) }
        /// ```
        public var configureDelivery: @Sendable (inout DeliveryConfiguration) -> Void = { _ in }
        /// What carries envelopes to ``dsn``; `nil` (the default) is a ``URLSessionEnvelopeTransport``. Server-side
        /// apps on Linux set the `FaultlineAsyncHTTPClient` library's. One reporter's, not shared: closing the reporter
        /// cancels the transport's requests.
        public var transport: (any EnvelopeTransport)?
        /// The size at which the local log's active file rotates into a compressed file; 8 MiB by default, and at
        /// most half of ``maxLogSize``.
        public var maxLogFileSize = 8 * 1024 * 1024
        /// The most bytes the local log takes on disk; 64 MiB by default. Past it the oldest rotated files are deleted,
        /// and their events not yet sent are counted as `cache_overflow`: the log is what the uploader sends from.
        public var maxLogSize = 64 * 1024 * 1024
        /// How long the local log keeps an event, and the outbox an envelope; `nil` (the default) keeps them until
        /// ``maxLogSize`` (or the outbox's limits) delete them. With an age, say `.seconds(30 * 24 * 3600)` for a
        /// retention policy, the log's files are rotated within a 24th of it and removed whole once past it, checked
        /// as events are written and as the uploader sends, at most once a minute; events not yet
        /// sent are counted in ``DeliveryStatistics/expired`` and reported as `cache_overflow`. `configureDelivery`
        /// may give the outbox an age of its own (``DeliveryConfiguration/maxAge``).
        public var maxLogAge: Duration?
        /// The gzip level of the log's rotated files, 0 (stored) to 9 (smallest); 6 by default. It trades CPU for the
        /// events an outage keeps within ``maxLogSize``: level 6 costs about twice level 1's CPU per event and stores
        /// them in well under half its space (Benchmarks/README.md has the figures).
        public var logCompressionLevel: Int32 = 6
        /// The most captured events waiting to be written; 1000 by default. Past it, events are dropped and
        /// counted as `queue_overflow`.
        public var maxQueueSize = 1000
        /// The share of captured events that are kept, from 0 to 1; 1 (all) by default. Decided at random when
        /// `capture` is called, before the event is queued or assembled, as Sentry's `sampleRate` is; the others are
        /// counted in ``Statistics/droppedBySampleRate`` and in client reports as `sample_rate`, and the CLI does not
        /// see them. A value outside 0...1 is ignored, leaving 1, as Sentry's SDKs ignore it.
        public var sampleRate: Double = 1 {
            didSet {
                if !(0...1).contains(sampleRate) { sampleRate = 1 }
            }
        }
        /// At most this many events of one fingerprint per window, the rest counted and their number carried on the
        /// next event of the fingerprint that is kept; 10 per minute by default, `nil` for no limit. Decided at
        /// capture, after ``sampleRate``, before the event is queued or assembled.
        ///
        /// Ten a minute keep enough of a storm to diagnose it (the fingerprint already names the failure, its
        /// endpoint, status and business code; ten events a minute show its users and requests) while a thousand
        /// failing requests a second write and send one event in 6000; the CLI's counts and rates still include
        /// every event. Sentry's Dedupe integration, on by default in its SDKs, drops only an event identical to the
        /// one before it; a limit per fingerprint also calms storms whose events alternate.
        public var fingerprintLimit: FingerprintLimit? = FingerprintLimit()
        /// The release, such as `com.example.shop@3.2.0+310`: by default the `SENTRY_RELEASE` environment variable's,
        /// else, as sentry-cocoa does, the bundle's identifier, version and build (an app's main bundle has them; a
        /// server-side executable sets its own).
        public var release: String?
        /// The distribution, which tells builds of one release apart (Sentry's `dist`): by default the bundle's
        /// build number (`CFBundleVersion`), when it has one.
        public var dist: String?
        /// What the bundle said about the app: filled into every event's `app` context.
        let appIdentity: AppIdentity
        /// The environment; by default the `SENTRY_ENVIRONMENT` environment variable's, else `production`.
        public var environment = "production"
        /// The host every event and transaction names as its `server_name` (Sentry's `serverName`), the first thing
        /// an on-call engineer asks of a server's failure: by default the machine's host name on macOS and Linux,
        /// and none on iOS, tvOS, watchOS and visionOS, where it would name the user's device.
        public var serverName: String? = Options.defaultServerName
        /// Whether events carry the personal data the reporter could add on its own (Sentry's `sendDefaultPii`);
        /// `false` by default. With it, an event or transaction whose user has no IP address gets `{{auto}}`, which
        /// the server replaces with the address the event came from. What the app sets (the user, tags, extras) is
        /// sent either way, and ``scrubRules`` apply either way.
        public var sendDefaultPii = false
        /// Prefixes of the modules whose frames are the app's (`in_app`), winning over ``inAppExclude`` (Sentry's
        /// `inAppInclude`); empty by default.
        public var inAppInclude: [String] = []
        /// Prefixes of the modules whose frames are not the app's (Sentry's `inAppExclude`): the module of a wrapper
        /// that captures for the app, whose call site would otherwise be the event's one in-app frame. Empty by
        /// default: the code that captures is the app's.
        public var inAppExclude: [String] = []
        /// The most breadcrumbs an event carries; 100 by default.
        public var maxBreadcrumbs = 100
        /// HTTP statuses whose server failures the ``CaptureMiddleware`` captures; 400–599 by default (Sentry's
        /// `failedRequestStatusCodes`, wider than its 500–599 because business codes travel on 4xx). A failure the
        /// error contract found inside a 2xx body is always captured.
        public var failedRequestStatusCodes: [ClosedRange<Int>] = [400...599]
        /// Which request URLs the ``CaptureMiddleware`` captures failures of: a URL matches when it contains one of
        /// these strings. `nil` (the default) captures only the client's own base URL, never third-party hosts
        /// (Sentry's `failedRequestTargets`, whose every-host default filed others' outages as app errors).
        public var failedRequestTargets: [String]?
        /// What is removed from requests and responses before anything is written or sent.
        public var scrubRules = ScrubRules()
        /// Rewrites an event, or drops it by returning `nil`, after the scope is applied and before it is stored.
        public var beforeSend: (@Sendable (SentryEvent) -> SentryEvent?)?
        /// Rewrites a transaction, or drops it by returning `nil`, before it is written and sent (Sentry's
        /// `beforeSendTransaction`): rename it, change its tags, its spans' descriptions and data, take spans out.
        /// One dropped is counted as `before_send`, with its spans, in ``Statistics/droppedByBeforeSend`` and client
        /// reports. What it returns is scrubbed by ``scrubRules``.
        ///
        /// ```swift
        /// options.beforeSendTransaction = { $0.name.hasPrefix("GET /health") ? nil : $0 }
        /// ```
        public var beforeSendTransaction: (@Sendable (TransactionEvent) -> TransactionEvent?)?
        /// Rewrites a breadcrumb, or drops it by returning `nil`, before it enters the scope (Sentry's
        /// `beforeBreadcrumb`): those the app adds, and the `http` and session breadcrumbs the reporter records. The
        /// breadcrumb it returns is then scrubbed by ``scrubRules``.
        public var beforeBreadcrumb: (@Sendable (Breadcrumb) -> Breadcrumb?)?
        /// Whether an event carries the code that sent the failed request or captured it (`CallSite`) as its stack
        /// trace (Sentry's `attachStacktrace`): one in-app frame with module, file, line and function, which Sentry
        /// and `faultline show` display. Grouping is unchanged: a failure's event is grouped by its fingerprint.
        /// On by default; recording it costs a few words per request.
        public var attachStacktrace = true
        /// Whether the capture middlewares count every request by route (method and route template) and outcome, with
        /// its duration: the denominator of a failure rate and the durations of its percentiles, which `faultline
        /// routes` shows. On by default. Counted in memory and written to the log (and sent, as an item of type
        /// `faultline.request_outcomes`, which `faultline serve` keeps and a Relay passes on) as one line per
        /// ``requestOutcomesInterval`` in which requests ended, and at flush and close; never one per request.
        /// Cancellations are not counted.
        public var recordsRequestOutcomes = true
        /// How long the request outcomes of one line span; a minute by default.
        public var requestOutcomesInterval = Duration.seconds(60)
        /// The share of traces this process starts that are recorded, from 0 to 1, as Sentry's `tracesSampleRate`:
        /// `nil` (the default) records none and still propagates traces (``tracePropagationTargets``) and links events
        /// to them. A recorded trace's requests become `http.client` spans, sent in transactions (each request its
        /// own, or the app's span's, ``Reporter/withSpan(_:operation:_:)``); a trace another service started keeps
        /// its decision. A value outside 0...1 is ignored, leaving `nil`.
        public var tracesSampleRate: Double? {
            didSet {
                if let rate = tracesSampleRate, !(0...1).contains(rate) { tracesSampleRate = nil }
            }
        }
        /// Decides the share of a trace's kind that is recorded, from what starts it, instead of
        /// ``tracesSampleRate`` (Sentry's `tracesSampler`); a `nil` answer leaves the decision to the parent's, else
        /// to ``tracesSampleRate``.
        ///
        /// ```swift
        /// options.tracesSampler = { $0.name.hasPrefix("GET /health") ? 0 : nil }
        /// ```
        public var tracesSampler: (@Sendable (SamplingContext) -> Double?)?
        /// Which request URLs carry the trace's `sentry-trace`, `baggage` and (``propagatesTraceparent``)
        /// `traceparent` headers: a URL matches when it contains one of these strings. `nil` (the default) sends them
        /// only to the client's own base URL, never to third parties, whose servers may refuse unknown headers or
        /// learn of the app's traces (Sentry's `tracePropagationTargets`, whose default is every host).
        public var tracePropagationTargets: [String]?
        /// Whether requests to ``tracePropagationTargets`` also carry the W3C `traceparent` header, for backends
        /// traced with OpenTelemetry; on by default.
        public var propagatesTraceparent = true
        /// The clock that dates events, breadcrumbs and log rotations; the system clock by default. Tests and demos
        /// set one they control, so that the logs they make are the same on every run.
        public var clock: @Sendable () -> Date = { Date() }
        /// The clock the reporter's timers run on, and its uploader's (``DeliveryConfiguration``): when handed-over
        /// request outcomes are taken, when an interval of them is written, the batch interval, backoff and rate
        /// limits; a `ContinuousClock`. A flush's or close's timeout is real time whatever it is. Tests hand it one
        /// they advance, to end an interval or a rate limit without waiting for it.
        package var timers = ElapsedClock.continuous

        /// Where the uploader keeps its cursor into the log, its statistics and the envelopes that are not logged
        /// events (client reports sent on their own): `<logDirectory>/outbox`.
        public var outboxDirectory: URL { LogLayout(logDirectory).outbox }

        /// The uploader's configuration: ``dsn`` and ``outboxDirectory`` tuned by ``configureDelivery``; `nil`
        /// without a DSN. Events the server refuses for the DSN itself (401, 403, 404: a wrong key or project) are kept
        /// in the log, retried with the backoff, and sent once the DSN is corrected, in this run or the next; the log's
        /// size and age bound them, as they bound an outage.
        var deliveryConfiguration: DeliveryConfiguration? {
            guard let dsn else { return nil }
            var configuration = DeliveryConfiguration(dsn: dsn, outboxDirectory: outboxDirectory)
            configuration.maxAge = maxLogAge
            configuration.keepsEnvelopesWhenRefused = true
            configuration.diagnostics = diagnostics
            configuration.clock = timers
            configureDelivery(&configuration)
            return configuration
        }

        /// Creates options that write the local log to `logDirectory`, with ``dsn``, ``release`` and ``environment``
        /// from `SENTRY_DSN`, `SENTRY_RELEASE` and `SENTRY_ENVIRONMENT` in `environmentVariables` (the process's
        /// by default) where they are set and not empty, as Sentry's SDKs read them, and the app's identity
        /// (``release``, ``dist``, the `app` context) from `bundle` (the main bundle by default); a value the app
        /// sets afterwards wins. A `SENTRY_DSN` that is not a DSN is said as an error diagnostic when the reporter
        /// starts, which then keeps events in the local log only (as sentry-cocoa disables itself and says why,
        /// without crashing the app), unless ``dsn`` was set.
        public init(
            logDirectory: URL, environmentVariables: [String: String] = ProcessInfo.processInfo.environment,
            bundle: Bundle = .main
        ) {
            self.logDirectory = logDirectory
            appIdentity = AppIdentity(bundle: bundle)
            dist = appIdentity.build
            let variable = { (name: String) in environmentVariables[name].flatMap { $0.isEmpty ? nil : $0 } }
            if let value = variable("SENTRY_DSN") {
                do {
                    dsn = try DSN(value)
                } catch {
                    unreadableEnvironmentDSN = DSN.ParseError(
                        dsn: value, reason: "\(error.reason) (it is the SENTRY_DSN environment variable)")
                }
            }
            release = variable("SENTRY_RELEASE") ?? appIdentity.release
            environment = variable("SENTRY_ENVIRONMENT") ?? environment
        }

        /// The machine's host name where a server may run; `nil` on the platforms of phones, TVs, watches and
        /// headsets.
        static var defaultServerName: String? {
            #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
                nil
            #else
                ProcessInfo.processInfo.hostName
            #endif
        }

        /// Whether a request of a client on `baseURL` to `url` carries the trace's headers.
        func propagatesTrace(to url: URL, baseURL: URL) -> Bool {
            let url = url.absoluteString
            return tracePropagationTargets.map { targets in targets.contains { url.contains($0) } }
                ?? url.hasPrefix(baseURL.absoluteString)
        }

        /// Whether the capture middleware of a client on `baseURL` captures `failure`.
        public func capturesAutomatically(_ failure: RequestFailure, baseURL: URL) -> Bool {
            let url = failure.context.url.absoluteString
            let isTarget =
                failedRequestTargets.map { targets in targets.contains { url.contains($0) } }
                ?? url.hasPrefix(baseURL.absoluteString)
            guard isTarget else { return false }
            guard case .server(let server) = failure.reason, !(200..<300).contains(server.statusCode) else {
                return true
            }
            return failedRequestStatusCodes.contains { $0.contains(server.statusCode) }
        }
    }
}
