import Faultline
import FaultlineRecords
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Turns failures, errors and messages into Sentry events with the current scope, writes each to the local log and,
/// with a DSN, sends it from there: each event is written once, and the log is what the uploader sends.
///
/// ```swift
/// var options = Reporter.Options(logDirectory: logs)
/// options.dsn = try DSN("https://publickey@o1.ingest.sentry.io/42")
/// let reporter = try Reporter(options: options)
/// await reporter.setUser(UserContext(id: "KAKAO_kim", segment: "KAKAO"))
/// let client = APIClient(baseURL: api) {
///     $0.middlewares = [CaptureMiddleware(reporter: reporter, baseURL: api), RetryMiddleware(),
///                       AuthenticationMiddleware(refresher: refresher)]
/// }
/// await reporter.observe(refresher)   // refreshes become breadcrumbs
/// …
/// await reporter.close()              // at exit: write and send what was captured, for up to 2 seconds
/// ```
///
/// Capturing costs the caller a snapshot of the scope and a place in a queue, a few microseconds: a writer task
/// assembles the event (scrubbing, `beforeSend`), encodes it and appends it to the local log, in capture order,
/// through the uploader, which sends it from there. ``flush(timeout:)`` waits for both. Before that, ``Options/sampleRate`` and
/// ``Options/fingerprintLimit`` decide whether the event is kept: in an error storm most captures are counted and
/// dropped there, before anything is queued or assembled.
///
/// **Durability.** An event is safe from a crash or a kill of the app once its line is in the log: the writer appends
/// it with one `write(2)`, after which the operating system holds it even if the process dies (not if the machine
/// loses power before the page cache is flushed). On a quiet queue that is well under a millisecond after `capture`
/// returns (`scripts/bench capture-latency` measures it); in a burst, events wait their turn in the queue. An app
/// killed before that loses the
/// event; one killed after it sends the event at its next start, from the cursor the uploader keeps into the log. A
/// line a kill cut short is cut off when the log opens, never sent.
public actor Reporter {
    /// How events are captured and stored.
    public nonisolated let options: Options
    /// What sends events to ``Options/dsn``; `nil` when events stay in the local log.
    package nonisolated let uploader: Uploader?
    private var scope: Scope
    private let scrubber: Scrubber
    /// Assembles and writes what is captured; `nil` when the reporter is not ``Options/enabled``.
    private let writer: EventWriter?
    private let queue: AsyncStream<PendingCapture>.Continuation
    private var submitted = 0
    private(set) var isClosed = false
    private var capturedExpiries: Set<UUID> = []
    private var observations: [Task<Void, Never>] = []
    /// How requests ended, handed over by the capture middlewares without waiting (``record(_:span:baseURL:)``).
    private nonisolated let handOff = OutcomeHandOff()
    /// Request outcomes counted by interval and the spans of the transactions under way
    /// (`Reporter+RequestOutcomes.swift`, `Reporter+Tracing.swift`).
    var recorder: RequestRecorder
    /// Writes the request outcomes of the interval under way at its end.
    var requestOutcomesDue: Task<Void, Never>?
    /// Where request outcomes are written; `nil` when ``Options/recordsRequestOutcomes`` is off.
    let requestOutcomesLog: RequestLog?
    /// Starts spans and decides traces' sampling, without waiting for the reporter.
    nonisolated let tracer: Tracer
    private var admission: CaptureAdmission
    /// Draws event and request ids without a system call.
    var identifiers = IdentifierGenerator()
    /// What became of every record: the reporter's, its writer's and its uploader's one account.
    let ledger: RecordLedger

    /// What the reporter did since it started, read from its ledger: each drop is counted there once, by reason and
    /// category, and these counts are views of it.
    public struct Statistics: Hashable, Sendable {
        /// Events written to the local log, by `error.kind`.
        public internal(set) var captured: [String: Int] = [:]
        /// Events `beforeSend` dropped, and transactions `beforeSendTransaction` dropped.
        public var droppedByBeforeSend: Int { discards[.beforeSend, .error] + discards[.beforeSend, .transaction] }
        /// Events dropped because ``Options/maxQueueSize`` events were already waiting to be written.
        public var droppedByQueueOverflow: Int { discards[.queueOverflow, .error] }
        /// Events dropped at capture because ``Options/sampleRate`` did not sample them.
        public var droppedBySampleRate: Int { discards[.sampleRate, .error] }
        /// Events dropped at capture because ``Options/fingerprintLimit`` events of their fingerprint were already
        /// kept in its window; their number is carried on the next event of the fingerprint that is kept.
        public var suppressedByFingerprintLimit: Int { discards[.eventProcessor, .error] }
        /// Transactions written to their log (``Options/tracesSampleRate``).
        public internal(set) var transactions = 0
        /// Events and transactions that could not be written, with the last reason.
        public internal(set) var failedWrites = 0
        public internal(set) var lastWriteError: String?
        /// Credentials refreshed, and sessions that expired, in the refreshers the reporter observes.
        public internal(set) var refreshes = 0
        public internal(set) var sessionExpiries = 0
        /// What was sent to ``Options/dsn`` and what was not, including earlier runs over the same outbox; `nil`
        /// when events stay in the local log.
        public internal(set) var delivery: DeliveryStatistics?
        /// Every record dropped in this run, by reason and category: at capture, at writing and by the uploader.
        package internal(set) var discards = DiscardCounts()
    }

    /// Creates a reporter; fails when the log directory or the outbox cannot be created or opened. One that is not
    /// ``Options/enabled`` opens nothing, and never fails.
    ///
    /// Events are sent to ``Options/dsn``, with the uploader's files in ``Options/outboxDirectory``, tuned by
    /// ``Options/configureDelivery`` and over ``Options/transport``; or nowhere when the DSN is `nil`, or came from a
    /// `SENTRY_DSN` that is not one, which is said as an error diagnostic.
    public init(options: Options) throws {
        guard options.enabled else {
            options.diagnostics(.debug, "not enabled: nothing is captured, written or sent")
            self.init(disabled: options)
            return
        }
        try self.init(enabled: options)
    }

    /// A reporter that captures, writes and (with a DSN) sends.
    private init(enabled options: Options) throws {
        let diagnostics = options.diagnostics
        if let unreadable = options.unreadableEnvironmentDSN {
            diagnostics(.error, "\(unreadable.description) Events are kept in the local log only.")
        }
        diagnostics(
            .debug,
            "writing events to \(options.logDirectory.path)"
                + (options.dsn.map { ", sending them to \($0.host) project \($0.projectID)" }
                    ?? ", sending them nowhere"))
        let logConfiguration = EventLog.Configuration(
            directory: options.logDirectory, maximumFileSize: options.maxLogFileSize,
            maximumTotalSize: options.maxLogSize, compressionLevel: options.logCompressionLevel,
            maximumAge: options.maxLogAge)
        let log = try EventLog(configuration: logConfiguration, now: options.clock)
        let layout = LogLayout(options.logDirectory)
        func requestLog(_ kind: RecordKind, if isRecorded: Bool) throws(EventLogError) -> EventLog? {
            guard isRecorded else { return nil }
            let configuration = kind.logConfiguration(
                in: layout, compressionLevel: options.logCompressionLevel, maximumAge: options.maxLogAge)
            return try EventLog(configuration: configuration, now: options.clock)
        }
        let tracer = Tracer(options: options)
        var logs: [RecordKind: EventLog] = [.events: log]
        logs[.transactions] = try requestLog(.transactions, if: tracer.isRecording)
        logs[.outcomes] = try requestLog(.outcomes, if: options.recordsRequestOutcomes)
        let uploader = try options.deliveryConfiguration
            .map { try Uploader(configuration: $0, transport: options.transport, logs: logs) }
        let scrubber = Scrubber(rules: options.scrubRules)
        let assembler = EventAssembler(
            builder: FailureEventBuilder(
                scrubber: scrubber, release: options.release, dist: options.dist, environment: options.environment,
                serverName: options.serverName),
            attachesStacktrace: options.attachStacktrace, beforeSend: options.beforeSend,
            beforeSendTransaction: options.beforeSendTransaction,
            inApp: InAppRules(include: options.inAppInclude, exclude: options.inAppExclude),
            sendsDefaultPii: options.sendDefaultPii)
        let ledger = uploader?.ledger ?? RecordLedger(delivery: nil, diagnostics: diagnostics)
        let transactionLog = logs[.transactions].map { RequestLog(.transactions, log: $0, uploader: uploader) }
        let writer = EventWriter(
            log: log, assembler: assembler, uploader: uploader, transactionLog: transactionLog, ledger: ledger)
        requestOutcomesLog = logs[.outcomes].map { RequestLog(.outcomes, log: $0, uploader: uploader) }
        let (events, queue) = AsyncStream.makeStream(
            of: PendingCapture.self, bufferingPolicy: .bufferingOldest(options.maxQueueSize))
        self.options = options
        self.uploader = uploader
        var scope = Scope(maxBreadcrumbs: options.maxBreadcrumbs)
        if case .object(let app)? = scope.contexts["app"] {
            scope.contexts["app"] = .object(app.merging(options.appIdentity.context) { $1 })
        }
        self.scope = scope
        self.scrubber = scrubber
        self.admission = CaptureAdmission(sampleRate: options.sampleRate, fingerprintLimit: options.fingerprintLimit)
        self.writer = writer
        self.tracer = tracer
        self.ledger = ledger
        self.queue = queue
        recorder = RequestRecorder(release: options.release, environment: options.environment)
        Task { await writer.run(events) }
    }

    /// A reporter that is not enabled: closed from the start, with nothing opened.
    private init(disabled options: Options) {
        self.options = options
        uploader = nil
        scope = Scope(maxBreadcrumbs: options.maxBreadcrumbs)
        scrubber = Scrubber(rules: options.scrubRules)
        writer = nil
        queue = AsyncStream<PendingCapture>.makeStream().continuation
        queue.finish()
        isClosed = true
        requestOutcomesLog = nil
        recorder = RequestRecorder(release: options.release, environment: options.environment)
        var untraced = options
        untraced.tracesSampleRate = nil
        untraced.tracesSampler = nil
        tracer = Tracer(options: untraced)
        admission = CaptureAdmission(sampleRate: 0, fingerprintLimit: nil)
        ledger = RecordLedger(delivery: nil, diagnostics: .none)
    }

    /// What the reporter did since it started, and what its uploader delivered.
    public var statistics: Statistics {
        get async {
            var statistics = ledger.statistics
            statistics.delivery = await uploader?.statistics
            return statistics
        }
    }

    /// Waits until every event captured so far is in the local log and, with an uploader, delivered, or until
    /// `timeout` has passed.
    ///
    /// - Returns: Whether everything was written and delivered in time.
    @discardableResult
    public func flush(timeout: Duration) async -> Bool {
        takeHandedOver()
        let deadline = ContinuousClock.now + timeout
        let written = await writer?.waitUntilProcessed(submitted, timeout: timeout) ?? true
        await writeRequestOutcomes()
        guard let uploader else { return written }
        let delivered = await uploader.flush(timeout: max(deadline - .now, .zero))
        return written && delivered
    }

    /// Waits until every event captured so far is in the local log, or until `timeout` has passed, without sending
    /// anything: what a demo that reads its own log waits for.
    ///
    /// - Returns: Whether everything was written in time.
    @discardableResult
    package func waitUntilWritten(timeout: Duration) async -> Bool {
        takeHandedOver()
        return await writer?.waitUntilProcessed(submitted, timeout: timeout) ?? true
    }

    /// Stops capturing, then writes what was captured and sends it for at most `timeout` (2 seconds by default,
    /// Sentry's `shutdownTimeInterval`). What was not sent is sent by the next run, from the log.
    ///
    /// - Returns: Whether everything was written and delivered in time.
    @discardableResult
    public func close(timeout: Duration = .seconds(2)) async -> Bool {
        for observation in observations { observation.cancel() }
        observations.removeAll()
        takeHandedOver()
        isClosed = true
        queue.finish()
        let deadline = ContinuousClock.now + timeout
        let written = await writer?.waitUntilProcessed(submitted, timeout: timeout) ?? true
        await writeRequestOutcomes()
        await writer?.close()
        await closeRequestOutcomesLog()
        guard let uploader else { return written }
        let delivered = await uploader.close(timeout: max(deadline - .now, .zero))
        return written && delivered
    }

    /// Changes the scope: tags, contexts, user. Breadcrumbs added here are scrubbed like those of
    /// ``addBreadcrumb(_:)``.
    public func configureScope(_ change: @Sendable (inout Scope) -> Void) {
        takeHandedOver()
        change(&scope)
        scope.replaceBreadcrumbs(scrubber.scrubbedTexts)
    }

    /// Sets the user every event carries (`nil` on sign-out).
    public func setUser(_ user: UserContext?) {
        scope.user = user
    }

    /// Adds a breadcrumb to the scope, with sensitive keys of its data filtered and the secrets in its message and
    /// data replaced, by ``Options/scrubRules``.
    public func addBreadcrumb(_ breadcrumb: Breadcrumb) {
        takeHandedOver()
        var filtered = breadcrumb
        filtered.data = breadcrumb.data.map(scrubber.data)
        keep(filtered)
    }

    /// Adds a breadcrumb to the scope, as ``Options/beforeBreadcrumb`` changes it (its data filtered again) unless it
    /// drops it, with the secrets in its text replaced: each is scrubbed once, here, not for every event that carries
    /// it.
    private func keep(_ breadcrumb: Breadcrumb) {
        var kept = breadcrumb
        if let beforeBreadcrumb = options.beforeBreadcrumb {
            guard let changed = beforeBreadcrumb(breadcrumb) else { return }
            kept = changed
            kept.data = changed.data.map(scrubber.data)
        }
        scope.addBreadcrumb(scrubber.scrubbedTexts(of: kept) ?? kept)
    }

    /// Captures a classified failure; returns the event id, or `nil` when nothing was captured (a cancellation, a
    /// session expiry already captured, a closed reporter, an event not sampled or over its fingerprint's limit, or a
    /// full queue). The event is assembled later, off the caller's path: one that `beforeSend` drops then is counted
    /// in ``Statistics/droppedByBeforeSend``.
    ///
    /// - Parameters:
    ///   - failure: The failure.
    ///   - request: The request as sent, for its (scrubbed) headers and body.
    ///   - user: A user for this event only, instead of the scope's.
    ///   - scope: Changes to the scope for this event only: tags, extras, contexts (Sentry's `withScope`).
    ///   - file: The file that captures it, named in the event's stack trace (``Options/attachStacktrace``) when the
    ///     failure's context has no call site (`APIClient` records one); leave the default, or pass on your caller's
    ///     from a wrapper that takes the same three parameters.
    ///   - function: The function that captures it.
    ///   - line: The line that captures it.
    @discardableResult
    public func capture(
        _ failure: RequestFailure, request: URLRequest? = nil, user: UserContext? = nil,
        scope: (@Sendable (inout Scope) -> Void)? = nil, file: String = #fileID, function: String = #function,
        line: Int = #line
    ) async -> String? {
        submit(
            failure, request: request, user: user, scope: scope,
            callSite: failure.context.callSite ?? CallSite(fileID: file, function: function, line: line),
            trace: SpanContext.current ?? tracer.propagationContext)
    }

    /// Captures the outcome of a request made with another HTTP stack (Alamofire, Moya, your own), classified
    /// exactly as `APIClient` would: a response with a failure status or contract failure, a transport error, or
    /// a body that `decodingError` says did not decode. Returns the event id, or `nil` when it was a success or a
    /// cancellation.
    ///
    /// - Parameters:
    ///   - request: The request as sent.
    ///   - route: The route template, such as `/users/{id}`; the URL's path by default (templates group better).
    ///   - response: The HTTP response, if one arrived.
    ///   - body: The response body.
    ///   - error: The transport error, if the request got no response.
    ///   - decodingError: The error thrown while decoding a successful body into `decodedType`.
    ///   - decodedType: The type the body was decoded into, named in the event.
    ///   - classifier: The server's error contract and code catalogue.
    ///   - user: A user for this event only.
    ///   - scope: Changes to the scope for this event only.
    ///   - file: The file that captures it, named in the event's stack trace (``Options/attachStacktrace``); leave
    ///     the default, or pass on your caller's from a wrapper that takes the same three parameters.
    ///   - function: The function that captures it.
    ///   - line: The line that captures it.
    @discardableResult
    public func capture(
        request: URLRequest, route: String? = nil, response: HTTPURLResponse?, body: Data?, error: (any Error)? = nil,
        decodingError: (any Error)? = nil, decodedType: Any.Type? = nil,
        classifier: FailureClassifier = FailureClassifier(), user: UserContext? = nil,
        scope: (@Sendable (inout Scope) -> Void)? = nil, file: String = #fileID, function: String = #function,
        line: Int = #line
    ) async -> String? {
        let url = request.url ?? URL(fileURLWithPath: "/")
        var context = RequestContext(
            requestID: RandomID.make(using: &identifiers), method: HTTPMethod(rawValue: request.httpMethod ?? "GET"),
            route: route ?? url.path, url: url, allowsRetry: false,
            callSite: CallSite(fileID: file, function: function, line: line))
        context.statusCode = response?.statusCode
        guard
            let reason = classifier.reason(
                response: response, body: body, transportError: error, decodingError: decodingError,
                decodedType: decodedType ?? Any.self)
        else { return nil }
        return await capture(RequestFailure(reason, context: context), request: request, user: user, scope: scope)
    }

    /// Captures any error; a `RequestFailure` is captured as one. `scope` changes the scope for this event only;
    /// `file`, `function` and `line` name the code that captures it, as for a failure.
    @discardableResult
    public func capture(
        error: any Error, user: UserContext? = nil, scope: (@Sendable (inout Scope) -> Void)? = nil,
        file: String = #fileID, function: String = #function, line: Int = #line
    ) async -> String? {
        if let failure = error as? RequestFailure {
            return await capture(failure, user: user, scope: scope, file: file, function: function, line: line)
        }
        return submit(
            .error(error), user: user, scope: scope, callSite: CallSite(fileID: file, function: function, line: line),
            trace: SpanContext.current ?? tracer.propagationContext)
    }

    /// Captures a message. `scope` changes the scope for this event only; `file`, `function` and `line` name the code
    /// that captures it, as for a failure.
    @discardableResult
    public func capture(
        message: String, level: SentryEvent.Level = .info, user: UserContext? = nil,
        scope: (@Sendable (inout Scope) -> Void)? = nil, file: String = #fileID, function: String = #function,
        line: Int = #line
    ) async -> String? {
        submit(
            .message(message, level: level), user: user, scope: scope,
            callSite: CallSite(fileID: file, function: function, line: line),
            trace: SpanContext.current ?? tracer.propagationContext)
    }

    /// Records refreshes and expiries of `refresher` as breadcrumbs, until the reporter is closed. A refresh that
    /// succeeded is a breadcrumb, never an event.
    public func observe<A: Authenticator>(_ refresher: TokenRefresher<A>) async {
        let events = await refresher.sessionEvents()
        // Closed while it subscribed: nothing is recorded after close.
        guard !isClosed else { return }
        observations.append(
            Task { [weak self] in
                for await event in events { await self?.record(event) }
            })
    }

    /// Records how a request of a client on `baseURL` ended, for the capture middlewares, with
    /// ``RequestUser/current`` as its user: a failure that ``Options/capturesAutomatically(_:baseURL:)`` selects is
    /// captured before this returns, linked to the request's `span`; every outcome is counted
    /// (``Options/recordsRequestOutcomes``), finishes the span (sent when its trace is sampled) and becomes the
    /// request's `http` breadcrumb (scrubbed URL, method, route, status), so the event does not carry its own request.
    /// A success is handed over without waiting for the reporter, and taken with the next capture, breadcrumb or scope
    /// change, flush or close, in order. A cancellation is neither captured, counted nor recorded.
    nonisolated package func record(_ outcome: RequestOutcome, span: RequestSpan?, baseURL: URL) async {
        guard !outcome.isCancelled else { return }
        let waiting = handOff.append(
            OutcomeHandOff.Entry(
                outcome: outcome, span: span, baseURL: baseURL, user: RequestUser.current, date: options.clock()))
        switch outcome {
        case .response where waiting == 1:
            // Taken within a second at most, so that intervals of request outcomes end on time: one task a second.
            Task { [weak self, timers = options.timers] in
                try? await Task.sleep(for: OutcomeHandOff.latency, clock: timers)
                await self?.takeHandedOver()
            }
        case .response:
            if waiting == OutcomeHandOff.limit { Task { [weak self] in await self?.takeHandedOver() } }
        case .failure, .failedAfterResponse:
            await takeHandedOver()
        }
    }

    /// Records the outcomes the capture middlewares handed over, in the order they ended: before anything that reads
    /// or changes the scope.
    func takeHandedOver() {
        for entry in handOff.take() { record(entry) }
    }

    /// Captures a failure the options select, counts the outcome, finishes the request's span and keeps its
    /// breadcrumb.
    private func record(_ entry: OutcomeHandOff.Entry) {
        switch entry.outcome {
        case .failure(let failure, let request, _), .failedAfterResponse(let failure, let request):
            if options.capturesAutomatically(failure, baseURL: entry.baseURL) {
                submit(
                    failure, request: request, user: entry.user, callSite: failure.context.callSite,
                    trace: entry.span?.context ?? tracer.propagationContext)
            }
        case .response: break
        }
        count(entry.outcome, at: entry.date)
        let url = scrubber.url(entry.outcome.context.url)
        // A failure found after the response (a body the OpenAPI runtime could not decode) is in a span that ended
        // with the response, and was recorded then.
        if tracer.isRecording, let span = entry.span, !entry.outcome.isFoundAfterResponse {
            switch span.context.isSampled {
            case true?: record(span.finished(entry.outcome, url: url), user: entry.user)
            case false? where span.isTransaction: discardUnsampledTransaction()
            default: break
            }
        }
        keep(entry.outcome.breadcrumb(url: url.url, at: entry.date))
    }

    private func record(_ event: SessionEvent) {
        takeHandedOver()
        switch event {
        case .refreshed: ledger.record { $0.refreshes += 1 }
        case .expired: ledger.record { $0.sessionExpiries += 1 }
        }
        keep(event.breadcrumb(at: options.clock()))
    }

    /// Queues the event of `failure`, unless it is a cancellation or a session expiry already captured.
    @discardableResult
    private func submit(
        _ failure: RequestFailure, request: URLRequest?, user: UserContext?,
        scope change: (@Sendable (inout Scope) -> Void)? = nil, callSite: CallSite?, trace: SpanContext
    ) -> String? {
        if case .sessionExpired(let expiry) = failure.reason, !capturedExpiries.insert(expiry.id).inserted {
            return nil
        }
        guard FailureKind(failure.reason) != nil else { return nil }
        return submit(
            .failure(failure, request: request), user: user, scope: change, callSite: callSite, trace: trace)
    }

    /// Queues a capture with the scope of this moment, as `change` changes it for this event, in the span `trace`;
    /// returns its event id, or `nil` when the reporter is closed, the event is not sampled or over its fingerprint's
    /// limit, or the queue is full.
    private func submit(
        _ source: PendingCapture.Source, user: UserContext?, scope change: (@Sendable (inout Scope) -> Void)?,
        callSite: CallSite?, trace: SpanContext
    ) -> String? {
        guard !isClosed else { return nil }
        // The requests that ended before it are its breadcrumbs.
        takeHandedOver()
        let date = options.clock()
        // The change may set the fingerprint the limit counts by; the breadcrumbs it adds are scrubbed once the
        // event is kept.
        var captured = scope
        change?(&captured)
        let fingerprint: [String]?
        let suppressedBefore: Int
        switch admission.admit(source, fingerprint: captured.fingerprint, at: date) {
        case .sampledOut:
            ledger.discard(.sampleRate)
            return nil
        case .suppressed:
            ledger.discard(.eventProcessor)
            return nil
        case .keep(let kept, let carried):
            (fingerprint, suppressedBefore) = (kept, carried)
        }
        if change != nil { captured.replaceBreadcrumbs(scrubber.scrubbedTexts) }
        let capture = PendingCapture(
            source: source, eventID: RandomID.make(using: &identifiers), date: date, scope: captured, user: user,
            callSite: callSite, trace: trace, suppressedBefore: suppressedBefore)
        guard case .enqueued = queue.yield(capture) else {
            if let fingerprint { admission.restore(suppressedBefore, of: fingerprint) }
            ledger.discard(.queueOverflow)
            return nil
        }
        submitted += 1
        return capture.eventID
    }

    /// Queues a transaction with the scope of this moment and `user` (the scope's when `nil`); one the full queue
    /// refuses is counted as `queue_overflow`, with its spans.
    func submit(_ transaction: PendingTransaction, user: UserContext?) {
        guard !isClosed else { return }
        let capture = PendingCapture(
            source: .transaction(transaction), eventID: RandomID.make(using: &identifiers), date: transaction.root.end,
            scope: scope, user: user)
        guard case .enqueued = queue.yield(capture) else {
            ledger.discard(.queueOverflow, .transaction, spans: transaction.spans.count + 1)
            return
        }
        submitted += 1
    }
}
