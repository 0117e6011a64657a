import Faultline
import Foundation

/// Sends envelopes to a Sentry-compatible endpoint through an outbox on disk, so that nothing accepted is lost to an
/// outage, a rate limit or a restart.
///
/// ```swift
/// let uploader = try Uploader(configuration: .init(dsn: dsn, outboxDirectory: logs.appendingPathComponent("outbox")))
/// uploader.enqueue(Envelope(eventID: event.eventID, eventJSON: json, dsn: dsn))
/// let delivered = await uploader.close(timeout: .seconds(2))
/// ```
///
/// - **Batching.** Each envelope is stored, then sending starts once ``Configuration/batchSize`` are waiting or the
///   oldest has waited ``Configuration/flushInterval``. Envelopes go out oldest first over reused connections, at
///   most ``Configuration/maximumConcurrentRequests`` at a time: each response frees a place for the next, until
///   none is left. Every request carries `X-Sentry-Auth`, the envelope content type, a gzip body and `sent_at` set
///   at send time.
/// - **Policy.** 2xx deletes the envelope. No response, 429, 502, 503 and 504 keep it and wait
///   ``Configuration/backoff`` before the next send. 413, other 4xx, 500 and other statuses delete it, counted as
///   `send_error`.
/// - **Rate limits.** `X-Sentry-Rate-Limits` is read on every response, `Retry-After` on a 429 (60 seconds when
///   absent). Stored envelopes of a limited category wait for the deadline; events enqueued while their category is
///   limited are not stored, counted as `ratelimit_backoff` (the local log still has them).
/// - **Client reports.** What was not delivered is counted by reason and category and sent as a `client_report`
///   item with the next envelope, or on its own at ``flush(timeout:)``.
/// - **Restarts.** Envelopes stored by an earlier run are sent first; an envelope is deleted as soon as the server
///   accepts it, so nothing is sent twice after a success.
/// - **Transport.** Requests go through an ``EnvelopeTransport``: URLSession by default, AsyncHTTPClient from the
///   `FaultlineAsyncHTTPClient` library for server-side apps on Linux.
public actor Uploader {
    /// Where and how envelopes are sent.
    public nonisolated let configuration: Configuration
    private var outbox: Outbox
    private var rateLimits = RateLimits()
    private var pendingReport = ClientReport()
    private var counts: DeliveryStatistics
    /// The outbox entries being sent.
    private var sending: Set<String> = []
    /// The envelope in flight that carries the pending client report, and the report.
    private var reportCarrier: (entry: String, report: ClientReport)?
    private var failuresInARow = 0
    private var retryAt: ContinuousClock.Instant?
    private var drainTask: Task<Void, Never>?
    private var wakeUp: (at: ContinuousClock.Instant, task: Task<Void, Never>)?
    private var idleWaiters = Waiters<Void>()
    private var isClosed = false
    private var statisticsStoredAt: ContinuousClock.Instant?
    private var storedCounts: DeliveryStatistics?
    private let transport: any EnvelopeTransport
    /// The DSN's envelope endpoint and the protocol's headers, the same on every request.
    private let envelopeURL: URL
    private let headerFields: [String: String]
    /// Compresses request bodies, one after another on the actor.
    private let deflater: Deflater
    private let clock = ContinuousClock()

    /// Opens the outbox and starts sending what an earlier run left in it.
    ///
    /// Stored files that cannot be read as envelopes are deleted and counted as `internal_sdk_error`.
    ///
    /// - Parameters:
    ///   - configuration: Where and how envelopes are sent.
    ///   - transport: What carries the requests; by default a ``URLSessionEnvelopeTransport`` with
    ///     ``Configuration/maximumConcurrentRequests`` connections.
    /// - Throws: When the outbox directory cannot be created or listed.
    public init(configuration: Configuration, transport: (any EnvelopeTransport)? = nil) throws {
        var unreadable = 0
        let outbox = try Outbox(
            directory: configuration.outboxDirectory,
            limits: .init(
                maximumCount: configuration.maximumOutboxCount, maximumBytes: configuration.maximumOutboxBytes),
            unreadable: { _, _ in unreadable += 1 })
        let client = SentryEvent.SDK.faultline.clientName
        self.configuration = configuration
        self.outbox = outbox
        self.transport =
            transport ?? URLSessionEnvelopeTransport(maximumConnections: configuration.maximumConcurrentRequests)
        self.envelopeURL = configuration.dsn.envelopeURL
        self.headerFields = [
            "Content-Type": "application/x-sentry-envelope",
            "Content-Encoding": "gzip",
            "X-Sentry-Auth": configuration.dsn.authHeader(client: client),
            "User-Agent": client,
        ]
        self.deflater = Deflater(level: configuration.compressionLevel)
        self.counts = DeliveryStatistics.stored(in: configuration.outboxDirectory)
        if unreadable > 0 {
            pendingReport.record(.internalSDKError, .error, quantity: unreadable)
            counts.recordDiscarded(.internalSDKError, .error, quantity: unreadable)
        }
        if !outbox.entries.isEmpty {
            Task { await self.startDraining() }
        }
    }

    /// What the uploader did, including earlier runs on the same outbox.
    public var statistics: DeliveryStatistics { counts }

    /// How many envelopes wait in the outbox, including those being sent.
    public var pendingCount: Int { outbox.entries.count }

    /// Stores `envelope` in the outbox for sending.
    ///
    /// - Returns: Whether it was stored: `false` when its category is rate-limited (counted as `ratelimit_backoff`),
    ///   when it holds no event or client report, when the uploader is closed, or when it could not be written
    ///   (counted as `internal_sdk_error`).
    @discardableResult
    public func enqueue(_ envelope: Envelope) -> Bool {
        guard !isClosed,
            let category = envelope.items.lazy.compactMap({ DataCategory(itemType: $0.type) }).first
        else { return false }
        if rateLimits.deadline(for: category, at: clock.now) != nil {
            discard(envelope, because: .ratelimitBackoff)
            return false
        }
        do {
            let stored = try outbox.store(envelope.serialized(), category: category, except: sending)
            for evicted in stored.evicted { discard(evicted.category, because: .cacheOverflow) }
        } catch {
            discard(envelope, because: .internalSDKError)
            return false
        }
        if outbox.entries.count - sending.count >= configuration.batchSize {
            startDraining()
        } else {
            scheduleWakeUp(at: clock.now + configuration.flushInterval)
        }
        return true
    }

    /// Counts `quantity` events of `category` that were discarded before reaching the uploader, such as those
    /// `beforeSend` dropped, for the next client report and the statistics.
    public func recordDiscarded(_ reason: DiscardReason, category: DataCategory = .error, quantity: Int = 1) {
        counts.recordDiscarded(reason, category, quantity: quantity)
        if category != .internal { pendingReport.record(reason, category, quantity: quantity) }
    }

    /// Sends what waits now, without waiting for a batch to fill, and waits until the outbox is empty or `timeout`
    /// has passed. Backoff and rate limits still apply. Counts of what was not delivered are sent too, in a client
    /// report of their own when no envelope is waiting to carry them.
    ///
    /// - Returns: Whether everything stored was delivered (or dropped by the policy) in time.
    @discardableResult
    public func flush(timeout: Duration) async -> Bool {
        if !pendingReport.isEmpty, outbox.entries.isEmpty, !isClosed {
            storeClientReport()
        }
        guard !outbox.entries.isEmpty else { return true }
        startDraining()
        await waitUntilEmpty(timeout: timeout)
        return outbox.entries.isEmpty
    }

    /// Flushes for at most `timeout`, then stops sending: requests still in flight are cancelled, and nothing is
    /// sent once this returns. What was not delivered stays in the outbox for the next run.
    ///
    /// - Returns: Whether everything stored was delivered in time. Closing again only says whether the outbox is
    ///   empty.
    @discardableResult
    public func close(timeout: Duration) async -> Bool {
        guard !isClosed else { return outbox.entries.isEmpty }
        let delivered = await flush(timeout: timeout)
        isClosed = true
        wakeUp?.task.cancel()
        wakeUp = nil
        await transport.cancelRequestsInFlight()
        await drainTask?.value
        outbox.deleteSpares()
        storeStatistics(force: true)
        return delivered
    }

    // MARK: Sending

    private func startDraining() {
        guard drainTask == nil, !isClosed else { return }
        drainTask = Task { await drain() }
    }

    /// Sends stored envelopes, oldest first, with up to ``Configuration/maximumConcurrentRequests`` in flight: each
    /// response frees a place for the next envelope, including those stored meanwhile. Stops when nothing is sendable
    /// now, then schedules the next attempt.
    private func drain() async {
        defer {
            drainTask = nil
            storeStatistics(force: outbox.entries.isEmpty)
            if outbox.entries.isEmpty { idleWaiters.resume { true } }
        }
        let concurrency = max(configuration.maximumConcurrentRequests, 1)
        await withTaskGroup(of: (OutboxEntry, EnvelopeResponse?).self) { group in
            var inFlight = 0
            while true {
                while inFlight < concurrency, let (entry, envelope) = nextEnvelope() {
                    let body = Gzip.compress(envelope, with: deflater)
                    let request = EnvelopeRequest(
                        url: envelopeURL, headerFields: headerFields, body: body,
                        timeout: configuration.requestTimeout)
                    group.addTask { [transport] in (entry, await transport.send(request)) }
                    inFlight += 1
                }
                guard inFlight > 0, let (entry, response) = await group.next() else { break }
                inFlight -= 1
                apply(response, to: entry)
            }
        }
        scheduleNextAttempt()
    }

    /// The oldest stored envelope that may be sent now, stamped with `sent_at` and carrying the pending client report
    /// when no other envelope in flight carries one; `nil` when the uploader is closed or backing off, or none is
    /// sendable. An envelope that cannot be read is deleted and counted.
    private func nextEnvelope() -> (OutboxEntry, Data)? {
        let now = clock.now
        guard !isClosed, retryAt.map({ $0 <= now }) ?? true else { return nil }
        while let entry = outbox.entries.first(where: {
            !sending.contains($0.name) && rateLimits.deadline(for: $0.category, at: now) == nil
        }) {
            let report = reportCarrier == nil && !pendingReport.isEmpty ? pendingReport.drain() : nil
            do {
                let envelope = try Envelope.stamping(
                    outbox.contents(of: entry), sentAt: Date(),
                    appending: try report.map { [try $0.item(at: Date())] } ?? [])
                sending.insert(entry.name)
                if let report { reportCarrier = (entry.name, report) }
                return (entry, envelope)
            } catch {
                if let report { pendingReport.merge(report) }
                outbox.remove(entry)
                discard(entry.category, because: .internalSDKError)
            }
        }
        return nil
    }

    /// Applies the delivery policy to the response to `entry`'s request (`nil` for a network error): reads the rate
    /// limits, deletes the envelope unless it is to be retried, and backs off after a failure. The client report it
    /// carried is counted again unless it was delivered.
    private func apply(_ response: EnvelopeResponse?, to entry: OutboxEntry) {
        let now = clock.now
        sending.remove(entry.name)
        if let response {
            rateLimits.update(
                status: response.statusCode,
                rateLimits: response.rateLimits, retryAfter: response.retryAfter, now: now)
        }
        let policy = DeliveryPolicy(status: response?.statusCode)
        if let carrier = reportCarrier, carrier.entry == entry.name {
            reportCarrier = nil
            if policy != .delivered { pendingReport.merge(carrier.report) }
        }
        switch policy {
        case .delivered:
            outbox.remove(entry)
            counts.delivered += 1
            failuresInARow = 0
        case .retry where response == nil && isClosed:
            break  // stopped by close(timeout:): not a failed attempt
        case .retry:
            counts.retried += 1
            // The requests already in flight when the endpoint failed fail too: they extend no backoff.
            if retryAt.map({ $0 <= now }) ?? true {
                failuresInARow += 1
                retryAt = now + configuration.backoff.delay(beforeRetry: failuresInARow)
            }
        case .drop:
            outbox.remove(entry)
            discard(entry.category, because: .sendError)
            failuresInARow = 0
        }
    }

    /// Wakes the uploader when the backoff ends, or when the earliest rate limit on a stored envelope lifts.
    private func scheduleNextAttempt() {
        guard !isClosed else { return }
        let now = clock.now
        if let retryAt, retryAt > now {
            scheduleWakeUp(at: retryAt)
        } else if let deadline = outbox.entries.lazy.filter({ !self.sending.contains($0.name) })
            .compactMap({ self.rateLimits.deadline(for: $0.category, at: now) }).min()
        {
            scheduleWakeUp(at: deadline)
        }
    }

    // MARK: Counting

    private func discard(_ envelope: Envelope, because reason: DiscardReason) {
        for category in envelope.items.compactMap({ DataCategory(itemType: $0.type) }) where category != .internal {
            discard(category, because: reason)
        }
    }

    /// Counts one envelope of `category` as discarded; a client report never reports on client reports.
    private func discard(_ category: DataCategory, because reason: DiscardReason) {
        recordDiscarded(reason, category: category)
    }

    private func storeClientReport() {
        let report = pendingReport.drain()
        do {
            let envelope = Envelope(header: [:], items: [try report.item(at: Date())])
            _ = try outbox.store(envelope.serialized(), category: .internal, except: sending)
        } catch {
            pendingReport.merge(report)
        }
    }

    /// Writes the statistics file when they changed: at most once a second while sending (the file is synced to
    /// disk, which cost more than storing the envelope), and whenever `force`d: the outbox emptied, or at close.
    private func storeStatistics(force: Bool = false) {
        guard counts != storedCounts else { return }
        let instant = clock.now
        if !force, let statisticsStoredAt, instant - statisticsStoredAt < .seconds(1) { return }
        statisticsStoredAt = instant
        storedCounts = counts
        try? counts.store(in: configuration.outboxDirectory, at: Date())
    }

    // MARK: Waiting

    private func scheduleWakeUp(at instant: ContinuousClock.Instant) {
        if let wakeUp, wakeUp.at <= instant { return }
        wakeUp?.task.cancel()
        let task = Task { [weak self] in
            try? await Task.sleep(until: instant, clock: .continuous)
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
