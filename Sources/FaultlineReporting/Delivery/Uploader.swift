import Faultline
import FaultlineRecords
import Foundation

/// Sends envelopes to a Sentry-compatible endpoint from what is on disk, so that nothing accepted is lost to an outage,
/// a rate limit or a restart: a reporter's events, transactions and request outcomes from their logs (each record is
/// written once, and read back from its log when it is sent), envelopes that arrive whole (a relay's) from an outbox
/// of their own: segment files that each hold many envelopes, appended to as envelopes are stored.
///
/// ```swift
/// let uploader = try Uploader(configuration: .init(dsn: dsn, outboxDirectory: logs.appendingPathComponent("outbox")))
/// uploader.enqueue(Envelope(eventID: event.eventID, eventJSON: json, dsn: dsn))
/// let delivered = await uploader.close(timeout: .seconds(2))
/// ```
///
/// - **Batching.** Each envelope is stored, then sending starts once ``DeliveryConfiguration/batchSize`` are waiting
///   or the oldest has waited ``DeliveryConfiguration/flushInterval``. Envelopes go out oldest first over reused
///   connections, at most ``DeliveryConfiguration/maxConcurrentRequests`` at a time: each response frees a place for
///   the next, until none is left. Every request carries `X-Sentry-Auth`, the envelope content type, a gzip body
///   (unless ``DeliveryConfiguration/compressionLevel`` is 0) and `sent_at` set at send time.
/// - **Policy.** 2xx deletes the envelope. No response, 502, 503 and 504 keep it and wait
///   ``DeliveryConfiguration/backoff`` before the next send; 429 keeps it until its rate limits lift. 413, other 4xx,
///   500 and other statuses delete it, counted as `send_error`.
/// - **Rate limits.** `X-Sentry-Rate-Limits` is read on every response, `Retry-After` on a 429 (60 seconds when
///   absent). Stored envelopes of a limited category wait for the deadline; events enqueued while their category is
///   limited are not stored, counted as `ratelimit_backoff` (the local log still has them).
/// - **Client reports.** What was not delivered is counted by reason and category in the ``ledger``, and what no report
///   has carried yet is sent as a `client_report` item with the next envelope, or on its own at ``flush(timeout:)``;
///   the ledger is stored beside the outbox, so what a run could not report, the next run does.
/// - **Restarts.** What an earlier run left is sent first. The outbox's envelopes and a reporter's records are sent
///   from cursors into the outbox and each log, stored at most every 25 ms and whenever nothing waits: an app killed
///   right after a delivery sends the last envelopes again, which the server deduplicates by `event_id` (at least
///   once).
/// - **Transport.** Requests go through an ``EnvelopeTransport``: URLSession by default, AsyncHTTPClient from the
///   `FaultlineAsyncHTTPClient` library for server-side apps on Linux.
package actor Uploader {
    /// Where and how envelopes are sent.
    package nonisolated let configuration: DeliveryConfiguration
    /// Envelopes that arrive whole (a relay's), in segments of their own: opened at start by an uploader without logs
    /// or where an earlier run left envelopes, else by the first ``enqueue(_:)``. A reporter's uploader sends its
    /// records from their logs, and stores no envelope.
    private var outbox: Outbox?
    /// The reporter's logs, when the uploader sends a reporter's records, and their lines still to be sent.
    private let logs: [RecordKind: EventLog]
    private var logQueues: [RecordKind: LogQueue]
    private var rateLimits = RateLimits<ElapsedClock.Instant>()
    /// What became of every record: what it delivered and dropped, what the reporter over its logs dropped, and what
    /// client reports have carried.
    package nonisolated let ledger: RecordLedger
    /// The envelope in flight that carries a client report, and the counts it carries.
    private var reportCarrier: (envelope: PendingEnvelope, report: DiscardCounts)?
    /// Whether a client report is to be sent on its own, as ``flush(timeout:)`` asks when nothing else waits to
    /// carry it.
    private var sendsReportAlone = false
    private var failuresInARow = 0
    /// Envelopes the endpoint refused (dropped as `send_error`) since the last flush, which then did not deliver all.
    private var refusedSinceFlush = 0
    private var retryAt: ElapsedClock.Instant?
    /// The failure the diagnostics said last; `nil` after a delivery.
    private var diagnosedFailure: DeliveryStatistics.DeliveryFailure?
    private var drainTask: Task<Void, Never>?
    private var wakeUp: (at: ElapsedClock.Instant, task: Task<Void, Never>)?
    private var idleWaiters = Waiters<Void>()
    private var isClosed = false
    /// The first ``close(timeout:)``, which later calls wait for.
    private var closing: Task<Bool, Never>?
    private var statisticsStoredAt: ElapsedClock.Instant?
    /// When the outbox and the log are next checked for what is past their maximum age.
    private var nextExpiryCheck: ElapsedClock.Instant?
    private var cursorStoredAt: ElapsedClock.Instant?
    /// The statistics as last stored.
    private var storedStatistics: DeliveryStatistics?
    private let transport: any EnvelopeTransport
    /// The DSN's envelope endpoint and the protocol's headers, the same on every request.
    private let envelopeURL: URL
    private let headerFields: [String: String]
    /// Compresses request bodies, one after another on the actor.
    private let deflater: Deflater
    /// The clock of every timer: the batch interval, the backoff, rate limits, expiry checks and how often the
    /// cursors and statistics are stored.
    private let clock: ElapsedClock

    /// The longest the stored cursors, into a reporter's log and into the outbox, lag behind the deliveries while
    /// sending.
    private static let cursorInterval = Duration.milliseconds(25)

    /// Opens the outbox and starts sending what an earlier run left in it.
    ///
    /// Files an earlier version left one envelope per file are moved into the outbox; those that cannot be read as
    /// envelopes are deleted and counted as `internal_sdk_error`.
    ///
    /// - Parameters:
    ///   - configuration: Where and how envelopes are sent.
    ///   - transport: What carries the requests; by default a ``URLSessionEnvelopeTransport`` with
    ///     ``DeliveryConfiguration/maxConcurrentRequests`` connections.
    /// - Throws: When the outbox directory cannot be created or listed.
    package init(configuration: DeliveryConfiguration, transport: (any EnvelopeTransport)? = nil) throws {
        try self.init(configuration: configuration, transport: transport, logs: [:])
    }

    /// Opens the queue of each of `logs`' lines to send (their cursors kept in the outbox directory), and the outbox
    /// when `logs` is empty or an earlier run left envelopes in it, and starts sending what an earlier run left in
    /// any. From then on, the uploader appends the reporter's records to their logs (``append(_:to:eventID:trace:)``),
    /// so each queue learns every line and every eviction from the append itself.
    ///
    /// Log lines that are not an object are skipped, counted as `internal_sdk_error`.
    init(configuration: DeliveryConfiguration, transport: (any EnvelopeTransport)?, logs: [RecordKind: EventLog]) throws
    {
        var unreadable = 0
        var outbox: Outbox?
        if logs.isEmpty || Outbox.holdsEnvelopes(in: configuration.outboxDirectory) {
            outbox = try Self.openOutbox(configuration) { unreadable += 1 }
        } else {
            // The cursors and the statistics are stored there.
            try FileManager.default.createDirectory(
                at: configuration.outboxDirectory, withIntermediateDirectories: true)
        }
        var logQueues: [RecordKind: LogQueue] = [:]
        var unreadableByCategory: [DataCategory: Int] = [:]
        for (kind, log) in logs {
            var queue = try LogQueue(
                kind: kind, log: log.configuration,
                cursorFile: DeliveryCursor.file(in: configuration.outboxDirectory, for: configuration.dsn, of: kind),
                indexLimit: configuration.maxIndexedLines)
            unreadableByCategory[kind.category, default: 0] += queue.takeSkippedLines()
            logQueues[kind] = queue
        }
        let client = SentryEvent.SDK.faultline.clientName
        self.configuration = configuration
        self.clock = configuration.clock
        self.outbox = outbox
        self.logQueues = logQueues
        self.logs = logs
        self.transport =
            transport ?? URLSessionEnvelopeTransport(maximumConnections: configuration.maxConcurrentRequests)
        self.envelopeURL = configuration.dsn.envelopeURL
        var headerFields = [
            "Content-Type": "application/x-sentry-envelope",
            "X-Sentry-Auth": configuration.dsn.authHeader(client: client),
            "User-Agent": client,
        ]
        if configuration.compressionLevel > 0 { headerFields["Content-Encoding"] = "gzip" }
        self.headerFields = headerFields
        self.deflater = Deflater(level: configuration.compressionLevel)
        let ledger = RecordLedger(
            delivery: DeliveryStatistics.stored(in: configuration.outboxDirectory),
            diagnostics: configuration.diagnostics)
        self.ledger = ledger
        unreadableByCategory[.error, default: 0] += unreadable
        for (category, quantity) in unreadableByCategory where quantity > 0 {
            ledger.discard(.internalSDKError, category, quantity: quantity)
        }
        // What an earlier run could not report is reported now, with what it left to send or on its own.
        sendsReportAlone = !ledger.unreported.isEmpty
        if sendsReportAlone || outbox?.isEmpty == false || !logQueues.values.allSatisfy(\.isEmpty) {
            Task { await self.startDraining() }
        }
    }

    /// Opens the outbox in the configured directory, moving into it what an earlier version left one envelope per
    /// file; `unreadable` is called for each such file that is not an envelope.
    private static func openOutbox(_ configuration: DeliveryConfiguration, unreadable: () -> Void) throws -> Outbox {
        try Outbox(
            directory: configuration.outboxDirectory,
            limits: .init(
                maximumCount: configuration.maxOutboxCount, maximumBytes: configuration.maxOutboxBytes,
                maximumAge: configuration.maxAge),
            unreadable: { _, _ in unreadable() })
    }

    /// What the uploader did, including earlier runs on the same outbox.
    package var statistics: DeliveryStatistics {
        var statistics = ledger.delivery ?? DeliveryStatistics()
        statistics.waiting = pendingCount
        return statistics
    }

    /// How many envelopes and logged records wait to be sent, including those being sent.
    package var pendingCount: Int { logQueues.values.reduce(outbox?.pendingCount ?? 0) { $0 + $1.pendingCount } }

    /// Whether nothing waits to be sent: no envelope, no logged record, and no client report that a flush sends on its
    /// own.
    var isEmpty: Bool { outbox?.isEmpty != false && logQueues.values.allSatisfy(\.isEmpty) && !sendsReportAlone }

    /// Stores `envelope` in the outbox for sending.
    ///
    /// - Returns: Whether it was stored: `false` when its category is rate-limited (counted as `ratelimit_backoff`),
    ///   when it holds no item of a known data category, when the uploader is closed, or when it could not be written
    ///   (counted as `internal_sdk_error`).
    @discardableResult
    package func enqueue(_ envelope: Envelope) -> Bool {
        guard !isClosed, let category = DataCategory(rateLimiting: envelope) else { return false }
        if rateLimits.deadline(for: category, at: clock.now) != nil {
            discard(envelope, because: .ratelimitBackoff)
            return false
        }
        do {
            if outbox == nil {
                outbox = try Self.openOutbox(configuration) { discard(.error, because: .internalSDKError, quantity: 1) }
            }
            for evicted in try outbox!.store(envelope.serialized(), category: category) {
                discard(evicted, because: .cacheOverflow)
            }
        } catch {
            discard(envelope, because: .internalSDKError)
            return false
        }
        startSendingOrWait()
        return true
    }

    /// How long the rate limits the endpoint announced still hold back `envelope`, and the category they hold back;
    /// `nil` when it may be sent now. A relay passes them on to its own clients, as Sentry's Relay does.
    package func rateLimit(of envelope: Envelope) -> (wait: Duration, category: DataCategory)? {
        guard let category = DataCategory(rateLimiting: envelope) else { return nil }
        let now = clock.now
        guard let deadline = rateLimits.deadline(for: category, at: now) else { return nil }
        return (deadline - now, category)
    }

    /// Appends a reporter's record, the JSON `line`, to its log of `kind` and adds it to what is sent, in an envelope
    /// whose header names `eventID` and carries `trace` (a transaction's); the lines not sent yet of the log files
    /// that the append's rotation evicted are counted as `cache_overflow`. Appends are made one at a time per log, by
    /// the reporter, to an uploader opened over the reporter's logs.
    ///
    /// A record of a rate-limited category is logged, not sent, counted as `ratelimit_backoff`.
    ///
    /// - Throws: The log's error when the line could not be appended; nothing is sent then.
    func append(
        _ line: Data, to kind: RecordKind, eventID: String? = nil, trace: JSONValue? = nil
    ) async throws(EventLogError) {
        guard let log = logs[kind] else {
            preconditionFailure("an uploader appends records only to the logs it was opened over")
        }
        let appended = try await log.appendLine(line)
        guard !isClosed, logQueues[kind] != nil else { return }
        dropLines(of: appended.removed, of: kind)
        let position = appended.position
        if rateLimits.deadline(for: kind.category, at: clock.now) != nil {
            logQueues[kind]?.skip(to: LogPosition(segment: position.segment, offset: position.offset + line.count + 1))
            discard(kind.category, because: .ratelimitBackoff)
            return
        }
        logQueues[kind]?.append(line, at: position, eventID: eventID, trace: trace?.compactJSON)
        startSendingOrWait()
    }

    /// Drops the lines not sent yet of the segments the log of `kind` took out: those it evicted counted as
    /// `cache_overflow`, those past its maximum age as expired.
    private func dropLines(of removed: EventLog.RemovedSegments, of kind: RecordKind) {
        let evicted = logQueues[kind]?.evict(removed.evicted) ?? 0
        if evicted > 0 { discard(kind.category, because: .cacheOverflow, quantity: evicted) }
        let expired = logQueues[kind]?.evict(removed.expired) ?? 0
        if expired > 0 { recordExpired(kind.category, quantity: expired) }
    }

    /// Drops what waited past the maximum age, in the outbox and in the logs, when a check is due (`Retention`).
    private func expireIfDue() async {
        let ages = [configuration.maxAge] + logs.values.map(\.configuration.maximumAge)
        guard let age = ages.compactMap({ $0 }).min(), nextExpiryCheck.map({ clock.now >= $0 }) ?? true else { return }
        nextExpiryCheck = clock.now + Retention.checkInterval(of: age)
        if let maxAge = configuration.maxAge {
            for category in outbox?.expire(storedBefore: Date() - maxAge.timeInterval) ?? [] {
                recordExpired(category, quantity: 1)
            }
        }
        for (kind, log) in logs {
            if let removed = try? await log.expire() { dropLines(of: removed, of: kind) }
        }
    }

    /// Counts `quantity` events of `category` dropped because they waited past the maximum age, reported as
    /// `cache_overflow`.
    private func recordExpired(_ category: DataCategory, quantity: Int) {
        ledger.expire(category, quantity: quantity)
    }

    /// Starts sending once a batch waits, or schedules a send after the flush interval.
    private func startSendingOrWait() {
        let waiting = logQueues.values.reduce(outbox?.waitingCount ?? 0) { $0 + $1.pendingCount }
        if waiting >= configuration.batchSize {
            startDraining()
        } else {
            scheduleWakeUp(at: clock.now + configuration.flushInterval)
        }
    }

    /// Sends what waits now, without waiting for a batch to fill, and waits until the outbox is empty or `timeout`
    /// has passed in real time (whatever ``DeliveryConfiguration``'s clock: the caller's patience is not one of the
    /// uploader's timers). Backoff and rate limits still apply. Counts of what was not delivered are sent too, in a
    /// client report of their own when no envelope is waiting to carry them.
    ///
    /// - Returns: Whether everything stored was delivered in time: `false` when something still waits, or when the
    ///   endpoint refused an envelope since the last flush (a wrong key gets 403 for every one), which is dropped and
    ///   counted as `send_error`.
    @discardableResult
    package func flush(timeout: Duration) async -> Bool {
        if isEmpty, !isClosed, !ledger.unreported.isEmpty {
            sendsReportAlone = true
        }
        if !isEmpty {
            startDraining()
            await waitUntilEmpty(timeout: timeout)
        }
        defer { refusedSinceFlush = 0 }
        return isEmpty && refusedSinceFlush == 0
    }

    /// Flushes for at most `timeout`, then stops sending: requests still in flight are cancelled, and nothing is
    /// sent once this returns. What was not delivered is sent by the next run: the outbox's envelopes, the logs'
    /// records from their cursors, and a client report of what was dropped.
    ///
    /// - Returns: Whether everything stored was delivered in time. Closing again, even while the first close runs,
    ///   waits for the first and only says whether nothing waits to be sent.
    @discardableResult
    package func close(timeout: Duration) async -> Bool {
        if let closing {
            _ = await closing.value
            return isEmpty
        }
        let closing = Task { await self.flushAndStop(timeout: timeout) }
        self.closing = closing
        return await closing.value
    }

    /// What ``close(timeout:)`` does, once.
    private func flushAndStop(timeout: Duration) async -> Bool {
        let delivered = await flush(timeout: timeout)
        isClosed = true
        wakeUp?.task.cancel()
        wakeUp = nil
        await transport.cancelRequestsInFlight()
        await drainTask?.value
        // Counts no report carried are stored with the statistics, for the next run's first envelope.
        sendsReportAlone = false
        storeCursor(force: true)
        outbox?.closeFiles()
        storeStatistics(force: true)
        return delivered
    }

    // MARK: Counting

    private func discard(_ envelope: Envelope, because reason: DiscardReason) {
        for category in envelope.items.compactMap({ DataCategory(itemType: $0.type) }) where category != .internal {
            discard(category, because: reason)
        }
    }

    /// Counts `quantity` envelopes of `category` the uploader itself discarded.
    private func discard(_ category: DataCategory, because reason: DiscardReason, quantity: Int = 1) {
        ledger.discard(reason, category, quantity: quantity)
    }

    /// Asks the endpoint whether it takes this uploader's DSN, sending nothing that waits: one envelope with an empty
    /// client report (no discards), which an ingest authenticates as any envelope and has nothing to record for.
    /// Rate limits and statistics are left as they are.
    ///
    /// - Returns: The endpoint's answer; `nil` when none came (unreachable, or timed out).
    package func probe() async -> EnvelopeResponse? {
        let item = DiscardCounts().clientReportItem(at: Date())
        let envelope = Envelope(header: ["dsn": .string(configuration.dsn.description)], items: [item])
            .serialized(sentAt: Date())
        let body = configuration.compressionLevel > 0 ? Gzip.compress(envelope, with: deflater) : envelope
        return await transport.send(
            EnvelopeRequest(
                url: envelopeURL, headerFields: headerFields, body: body, timeout: configuration.requestTimeout))
    }

    /// Stores the cursors into the logs and the outbox when they moved: at most every ``cursorInterval`` while
    /// sending, and whenever `force`d (sending stopped, or the uploader closed). A cursor that cannot be stored is
    /// tried again next time.
    private func storeCursor(force: Bool = false) {
        let instant = clock.now
        if !force, let cursorStoredAt, instant - cursorStoredAt < Self.cursorInterval { return }
        cursorStoredAt = instant
        for kind in logQueues.keys { try? logQueues[kind]?.storeCursor() }
        try? outbox?.storeCursor()
    }

    /// Writes the statistics file when they changed: at most once a second while sending (the file is synced to
    /// disk, which cost more than storing the envelope), and whenever `force`d: the outbox emptied, or at close.
    private func storeStatistics(force: Bool = false) {
        let statistics = self.statistics
        guard statistics != storedStatistics else { return }
        let instant = clock.now
        if !force, let statisticsStoredAt, instant - statisticsStoredAt < .seconds(1) { return }
        statisticsStoredAt = instant
        storedStatistics = statistics
        try? statistics.store(in: configuration.outboxDirectory, at: Date())
    }

    // MARK: Waiting

    private func scheduleWakeUp(at instant: ElapsedClock.Instant) {
        if let wakeUp, wakeUp.at <= instant { return }
        wakeUp?.task.cancel()
        let task = Task { [weak self, clock] in
            try? await Task.sleep(until: instant, clock: clock)
            guard !Task.isCancelled else { return }
            await self?.wake()
        }
        wakeUp = (instant, task)
    }

    private func wake() {
        wakeUp = nil
        startDraining()
    }

    private func waitUntilEmpty(timeout: Duration) async {
        let id = UUID()
        await withCheckedContinuation { continuation in
            let timeoutTask = Task { [weak self] in
                try? await Task.sleep(for: timeout)
                await self?.timeOutIdleWaiter(id)
            }
            idleWaiters.add(id, target: (), continuation: continuation, timeout: timeoutTask)
        }
    }

    private func timeOutIdleWaiter(_ id: UUID) {
        idleWaiters.timeOut(id)
    }
}

extension Uploader {
    /// What a request carries: a record of one of the reporter's logs, or of the outbox, or a client report alone.
    fileprivate struct PendingEnvelope: Hashable {
        /// The record; `nil` for a client report sent on its own.
        let entry: QueueEntry<DataCategory>?
        /// The log it is a line of; `nil` for an envelope of the outbox.
        let log: RecordKind?

        /// The category it is rate-limited and counted by.
        var category: DataCategory { entry?.category ?? .internal }
    }
}

/// The send loop: which envelope goes next, and what each answer means for it.
extension Uploader {
    /// Starts sending what waits, unless sending already runs or the uploader is closed.
    private func startDraining() {
        guard drainTask == nil, !isClosed else { return }
        drainTask = Task { await drain() }
    }

    /// Sends stored envelopes, oldest first, with up to ``DeliveryConfiguration/maxConcurrentRequests`` in flight: each
    /// response frees a place for the next envelope, including those stored meanwhile. Stops when nothing is sendable
    /// now, then schedules the next attempt.
    private func drain() async {
        defer {
            drainTask = nil
            storeCursor(force: true)
            storeStatistics(force: isEmpty)
            if isEmpty { idleWaiters.resume { true } }
        }
        await expireIfDue()
        let concurrency = max(configuration.maxConcurrentRequests, 1)
        await withTaskGroup(of: (PendingEnvelope, EnvelopeResponse?).self) { group in
            var inFlight = 0
            while true {
                while inFlight < concurrency, let (pending, envelope) = nextEnvelope() {
                    let body =
                        configuration.compressionLevel > 0 ? Gzip.compress(envelope, with: deflater) : envelope
                    let request = EnvelopeRequest(
                        url: envelopeURL, headerFields: headerFields, body: body,
                        timeout: configuration.requestTimeout)
                    group.addTask { [transport] in (pending, await transport.send(request)) }
                    inFlight += 1
                }
                guard inFlight > 0, let (pending, response) = await group.next() else { break }
                inFlight -= 1
                apply(response, to: pending)
                storeCursor()
            }
        }
        scheduleNextAttempt()
    }

    /// The oldest logged record that may be sent now, events first, then transactions and request outcomes, or else
    /// the oldest stored envelope, stamped with `sent_at` and carrying a client report of what no report carried yet
    /// when no other envelope in flight carries one; or else that report alone, when a flush asked for it; `nil` when
    /// the uploader is closed or backing off, or nothing is sendable. What cannot be read is dropped and counted.
    private func nextEnvelope() -> (PendingEnvelope, Data)? {
        let now = clock.now
        guard !isClosed, retryAt.map({ $0 <= now }) ?? true else { return nil }
        let limits = rateLimits
        let isSendable = { (category: DataCategory) in limits.deadline(for: category, at: now) == nil }
        let dsn = configuration.dsn
        for kind in RecordKind.allCases where logQueues[kind] != nil {
            let logged = take(from: &logQueues[kind]!, log: kind, where: isSendable) { queue, entry, line, items in
                Envelope(
                    carrying: line, of: kind, eventID: queue.record(entry).eventID, trace: queue.trace(of: entry),
                    to: dsn, appending: items
                ).serialized(sentAt: Date())
            }
            let skipped = logQueues[kind]?.takeSkippedLines() ?? 0
            if skipped > 0 { discard(kind.category, because: .internalSDKError, quantity: skipped) }
            if let logged { return logged }
        }
        if outbox != nil {
            let stored = take(from: &outbox!, log: nil, where: isSendable) { _, _, stored, items in
                try Envelope.stamping(stored, sentAt: Date(), appending: items)
            }
            if let stored { return stored }
        }
        guard sendsReportAlone, reportCarrier == nil, isSendable(.internal) else { return nil }
        guard let report = takeReportToCarry() else {
            sendsReportAlone = false
            return nil
        }
        let pending = PendingEnvelope(entry: nil, log: nil)
        reportCarrier = (pending, report)
        return (pending, Envelope(header: [:], items: [report.clientReportItem(at: Date())]).serialized(sentAt: Date()))
    }

    /// The oldest record of `queue` of a sendable category, in the envelope `wrap` puts its bytes in with the items
    /// that ride along; records that cannot be read back are dropped and counted (`cache_overflow` when the log
    /// evicted them, else `internal_sdk_error`).
    private func take<Segments>(
        from queue: inout DurableQueue<Segments>, log: RecordKind?, where isSendable: (DataCategory) -> Bool,
        wrap: (DurableQueue<Segments>, QueueEntry<DataCategory>, Data, [Envelope.Item]) throws -> Data
    ) -> (PendingEnvelope, Data)? where Segments.Category == DataCategory {
        while let entry = queue.next(where: isSendable) {
            let pending = PendingEnvelope(entry: entry, log: log)
            let report = takeReportToCarry()
            do {
                let bytes = try queue.contents(of: entry)
                let envelope = try wrap(queue, entry, bytes, report.map { [$0.clientReportItem(at: Date())] } ?? [])
                if let report { reportCarrier = (pending, report) }
                return (pending, envelope)
            } catch {
                queue.remove(entry)
                if case .evicted? = error as? LogSegmentReader.Failure {
                    discard(entry.category, because: .cacheOverflow)
                } else {
                    discard(entry.category, because: .internalSDKError)
                }
            }
        }
        return nil
    }

    /// What no client report has carried yet, to ride along with the next envelope, unless one in flight carries a
    /// report; `nil` when there is nothing to report.
    private func takeReportToCarry() -> DiscardCounts? {
        guard reportCarrier == nil else { return nil }
        let unreported = ledger.unreported
        return unreported.isEmpty ? nil : unreported
    }

    /// Applies the delivery policy to the response to `pending`'s request (`nil` for a network error): reads the rate
    /// limits, deletes the envelope (or passes the logged event) unless it is to be retried, and backs off after a
    /// failure. The client report it carried is counted as reported when it was delivered, or, alone, dropped: else
    /// the next envelope carries its counts again.
    private func apply(_ response: EnvelopeResponse?, to pending: PendingEnvelope) {
        let now = clock.now
        if let response {
            rateLimits.update(
                status: response.statusCode,
                rateLimits: response.rateLimits, retryAfter: response.retryAfter, now: now)
        }
        var policy = DeliveryPolicy(status: response?.statusCode)
        // A request that close(timeout:) cancelled did not fail.
        let failure: DeliveryStatistics.DeliveryFailure? =
            policy != .delivered && (response != nil || !isClosed)
            ? .init(status: response?.statusCode, reason: response?.sentryError, date: Date()) : nil
        if let failure { ledger.recordSend { $0.lastFailure = failure } }
        if policy == .drop, configuration.keepsEnvelopesWhenRefused, failure?.refusedTheDSN == true {
            policy = .retry
        }
        if response != nil || !isClosed { diagnose(policy, response, failure, of: pending.category, at: now) }
        if let carrier = reportCarrier, carrier.envelope == pending {
            reportCarrier = nil
            if policy == .delivered || (policy == .drop && pending.entry == nil) {
                ledger.recordReported(carrier.report)
                sendsReportAlone = false
            }
        }
        switch policy {
        case .delivered:
            remove(pending)
            ledger.recordSend {
                $0.delivered += 1
                $0.lastDelivery = Date()
            }
            failuresInARow = 0
        case .retry where response == nil && isClosed:
            retry(pending)  // stopped by close(timeout:): not a failed attempt
        case .retry:
            retry(pending)
            ledger.recordSend { $0.retried += 1 }
            // A 429's rate limits hold back what they name (everything when they name nothing), and only that: the
            // other categories go on at once. The requests already in flight when the endpoint failed fail too: they
            // extend no backoff.
            if response?.statusCode != 429, retryAt.map({ $0 <= now }) ?? true {
                failuresInARow += 1
                retryAt = now + configuration.backoff.delay(beforeRetry: failuresInARow)
            }
        case .drop:
            remove(pending)
            if pending.entry != nil { discard(pending.category, because: .sendError) }
            refusedSinceFlush += 1
            failuresInARow = 0
        }
    }

    /// Says what became of a send, through ``DeliveryConfiguration/diagnostics``: a failure when it is not the one said
    /// last (so an outage is one message, not one per envelope), a delivery after failures, and every delivery at the
    /// debug level.
    private func diagnose(
        _ policy: DeliveryPolicy, _ response: EnvelopeResponse?, _ failure: DeliveryStatistics.DeliveryFailure?,
        of category: DataCategory, at now: ElapsedClock.Instant
    ) {
        let diagnostics = configuration.diagnostics
        let host = configuration.dsn.host
        guard policy != .delivered else {
            if diagnosedFailure != nil {
                diagnosedFailure = nil
                diagnostics(.info, "\(host) accepts envelopes again")
            }
            diagnostics(.debug, "sent an envelope of \(category.rawValue) to \(host)")
            return
        }
        let status = response?.statusCode
        guard diagnosedFailure == nil || diagnosedFailure?.status != status else { return }
        diagnosedFailure = failure
        let reason = response?.sentryError.map { ": \($0)" } ?? ""
        guard let status else {
            return diagnostics(
                .warning, "\(host) did not answer (unreachable, or timed out): envelopes wait and are retried")
        }
        switch status {
        case 401, 403, 404:
            let outcome =
                configuration.keepsEnvelopesWhenRefused
                ? "events are kept and sent once the DSN is corrected" : "envelopes are dropped as send_error"
            diagnostics(.error, "\(host) refuses the DSN \(configuration.dsn) (\(status)\(reason)): \(outcome)")
        case 429:
            let wait = rateLimits.deadline(for: category, at: now).map { " for \(Int(($0 - now) / .seconds(1))) s" }
            diagnostics(.warning, "\(host) rate-limits \(category.rawValue)\(wait ?? ""): held back meanwhile")
        case _ where policy == .retry:
            diagnostics(.warning, "\(host) answered \(status)\(reason): envelopes wait and are retried")
        default:
            diagnostics(
                .error,
                "\(host) refused an envelope of \(category.rawValue) (\(status)\(reason)): dropped as send_error")
        }
    }

    /// Takes a delivered or dropped envelope out of what waits.
    private func remove(_ pending: PendingEnvelope) {
        guard let entry = pending.entry else { return }
        if let log = pending.log { logQueues[log]?.remove(entry) } else { outbox?.remove(entry) }
    }

    /// Puts an envelope whose send failed back among those that wait; one whose segment (or log file) was evicted
    /// meanwhile is dropped instead, counted as `cache_overflow`.
    private func retry(_ pending: PendingEnvelope) {
        guard let entry = pending.entry else { return }
        let kept = pending.log.map { logQueues[$0]?.retry(entry) ?? true } ?? outbox?.retry(entry) ?? true
        if !kept { discard(pending.category, because: .cacheOverflow) }
    }

    /// Wakes the uploader when the backoff ends; else now, when an envelope of a category not limited waits (it was
    /// stored, or the backoff ended, after this drain last looked, and its own wake-up found the drain still running);
    /// else when the earliest rate limit on a stored envelope lifts.
    private func scheduleNextAttempt() {
        guard !isClosed else { return }
        let now = clock.now
        if let retryAt, retryAt > now {
            scheduleWakeUp(at: retryAt)
            return
        }
        let isLimited = { (category: DataCategory) in self.rateLimits.deadline(for: category, at: now) != nil }
        let reportAlone: [DataCategory] = sendsReportAlone && reportCarrier == nil ? [.internal] : []
        let stored: [DataCategory] = outbox.map { Array($0.waitingCategories) } ?? []
        let indexed = stored + logQueues.values.flatMap(\.waitingCategories) + reportAlone
        if indexed.contains(where: { !isLimited($0) }) {
            scheduleWakeUp(at: now)
            return
        }
        let waitingCategories =
            stored + logQueues.filter(\.value.hasWaiting).map(\.key.category) + reportAlone
        if let deadline = waitingCategories.compactMap({ rateLimits.deadline(for: $0, at: now) }).min() {
            scheduleWakeUp(at: deadline)
        }
    }
}
