import Faultline
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends envelopes to a Sentry-compatible endpoint through an outbox on disk, so that nothing accepted is lost to an
/// outage, a rate limit or a restart.
///
/// ```swift
/// let uploader = try Uploader(configuration: .init(dsn: dsn, outboxDirectory: logs.appendingPathComponent("outbox")))
/// uploader.enqueue(Envelope(eventID: event.eventID, eventJSON: json, dsn: dsn))
/// let delivered = await uploader.close(timeout: .seconds(2))
/// ```
///
/// - **Batching.** Each envelope is stored, then sent once ``Configuration/batchSize`` are waiting or the oldest
///   has waited ``Configuration/flushInterval``; a batch goes out over reused connections, at most
///   ``Configuration/maximumConcurrentRequests`` at a time. Every request carries `X-Sentry-Auth`, the envelope
///   content type, a gzip body and `sent_at` set at send time.
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
public actor Uploader {
    /// Where and how envelopes are sent.
    public nonisolated let configuration: Configuration
    private var outbox: Outbox
    private var rateLimits = RateLimits()
    private var pendingReport = ClientReport()
    private var counts: DeliveryStatistics
    /// The outbox entries being sent.
    private var sending: Set<String> = []
    private var failuresInARow = 0
    private var retryAt: ContinuousClock.Instant?
    private var drainTask: Task<Void, Never>?
    private var wakeUp: (at: ContinuousClock.Instant, task: Task<Void, Never>)?
    private var idleWaiters = Waiters<Void>()
    private var isClosed = false
    private var statisticsStoredAt: ContinuousClock.Instant?
    private var storedCounts: DeliveryStatistics?
    private let session: URLSession
    private let clock = ContinuousClock()

    /// Opens the outbox and starts sending what an earlier run left in it.
    ///
    /// Stored files that cannot be read as envelopes are deleted and counted as `internal_sdk_error`.
    ///
    /// - Throws: When the outbox directory cannot be created or listed.
    public init(configuration: Configuration) throws {
        var unreadable = 0
        let outbox = try Outbox(
            directory: configuration.outboxDirectory,
            limits: .init(
                maximumCount: configuration.maximumOutboxCount, maximumBytes: configuration.maximumOutboxBytes),
            unreadable: { _, _ in unreadable += 1 })
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.httpMaximumConnectionsPerHost = configuration.maximumConcurrentRequests
        sessionConfiguration.timeoutIntervalForRequest = Self.seconds(configuration.requestTimeout)
        // Envelopes are never cached and carry no cookies or credentials; FoundationNetworking looks in its disk
        // cache for every request unless there is none.
        sessionConfiguration.urlCache = nil
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        sessionConfiguration.httpCookieStorage = nil
        sessionConfiguration.httpShouldSetCookies = false
        sessionConfiguration.urlCredentialStorage = nil
        self.configuration = configuration
        self.outbox = outbox
        self.session = URLSession(configuration: sessionConfiguration)
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
        // Cancelling the drain task instead would cancel `data(for:)` from inside the task's cancellation handler,
        // which deadlocks in FoundationNetworking when the request completes at the same moment (seen in CI).
        let inFlight = await withCheckedContinuation { continuation in
            session.getAllTasks { continuation.resume(returning: $0) }
        }
        for task in inFlight { task.cancel() }
        await drainTask?.value
        outbox.deleteSpares()
        storeStatistics(force: true)
        session.finishTasksAndInvalidate()
        return delivered
    }

    // MARK: Sending

    private func startDraining() {
        guard drainTask == nil, !isClosed else { return }
        drainTask = Task { await drain() }
    }

    /// Sends batches until nothing is sendable now, then schedules the next attempt.
    private func drain() async {
        defer {
            drainTask = nil
            storeStatistics(force: outbox.entries.isEmpty)
            if outbox.entries.isEmpty { idleWaiters.resume { true } }
        }
        while !isClosed {
            let now = clock.now
            if let retryAt, retryAt > now {
                scheduleWakeUp(at: retryAt)
                return
            }
            var batch: [OutboxEntry] = []
            var nextDeadline: ContinuousClock.Instant?
            for entry in outbox.entries where !sending.contains(entry.name) {
                if let deadline = rateLimits.deadline(for: entry.category, at: now) {
                    nextDeadline = min(nextDeadline ?? deadline, deadline)
                    continue
                }
                batch.append(entry)
                if batch.count == configuration.batchSize { break }
            }
            guard !batch.isEmpty else {
                if let nextDeadline { scheduleWakeUp(at: nextDeadline) }
                return
            }
            await send(batch)
        }
    }

    /// Sends `batch` with bounded concurrency and applies the policy to each response. The counts of what was not
    /// delivered ride along with the first envelope, and are counted again unless it is delivered.
    private func send(_ batch: [OutboxEntry]) async {
        let report = pendingReport.drain()
        var reportCarrier: OutboxEntry?
        var requests: [(entry: OutboxEntry, request: URLRequest)] = []
        for entry in batch {
            do {
                let carriesReport = reportCarrier == nil && !report.isEmpty
                let envelope = try Envelope.stamping(
                    outbox.contents(of: entry), sentAt: Date(),
                    appending: carriesReport ? [try report.item(at: Date())] : [])
                requests.append((entry, request(for: envelope)))
                sending.insert(entry.name)
                if carriesReport { reportCarrier = entry }
            } catch {
                outbox.remove(entry)
                discard(entry.category, because: .internalSDKError)
            }
        }
        if reportCarrier == nil { pendingReport.merge(report) }

        let responses = await perform(requests.map(\.request))

        let now = clock.now
        var retries = 0
        for (sent, response) in zip(requests, responses) {
            sending.remove(sent.entry.name)
            if let response {
                rateLimits.update(
                    status: response.statusCode,
                    rateLimits: response.value(forHTTPHeaderField: "X-Sentry-Rate-Limits"),
                    retryAfter: response.value(forHTTPHeaderField: "Retry-After"), now: now)
            }
            let policy = DeliveryPolicy(status: response?.statusCode)
            switch policy {
            case .delivered:
                outbox.remove(sent.entry)
                counts.delivered += 1
            case .retry where response == nil && isClosed:
                break  // stopped by close(timeout:): not a failed attempt
            case .retry:
                retries += 1
            case .drop:
                outbox.remove(sent.entry)
                discard(sent.entry.category, because: .sendError)
            }
            if sent.entry == reportCarrier, policy != .delivered { pendingReport.merge(report) }
        }
        counts.retried += retries
        if retries > 0 {
            failuresInARow += 1
            retryAt = now + configuration.backoff.delay(beforeRetry: failuresInARow)
        } else {
            failuresInARow = 0
            retryAt = nil
        }
    }

    /// The request that posts `envelope`: envelope content type, `X-Sentry-Auth`, and a gzip body that
    /// `perform(_:)` compresses off the actor.
    private func request(for envelope: Data) -> URLRequest {
        var request = URLRequest(url: configuration.dsn.envelopeURL)
        request.httpMethod = "POST"
        request.timeoutInterval = Self.seconds(configuration.requestTimeout)
        request.setValue("application/x-sentry-envelope", forHTTPHeaderField: "Content-Type")
        request.setValue("gzip", forHTTPHeaderField: "Content-Encoding")
        let client = SentryEvent.SDK.faultline.clientName
        request.setValue(configuration.dsn.authHeader(client: client), forHTTPHeaderField: "X-Sentry-Auth")
        request.setValue(client, forHTTPHeaderField: "User-Agent")
        request.httpBody = envelope
        return request
    }

    /// Sends `requests`, at most ``Configuration/maximumConcurrentRequests`` at a time, and none once the uploader
    /// is closed; each response in order, `nil` for a network error or a request not sent.
    private func perform(_ requests: [URLRequest]) async -> [HTTPURLResponse?] {
        let session = session
        let concurrency = configuration.maximumConcurrentRequests
        let compressionLevel = configuration.compressionLevel
        return await withTaskGroup(of: (Int, HTTPURLResponse?).self) { group in
            var responses = [HTTPURLResponse?](repeating: nil, count: requests.count)
            var next = 0
            func addNext() {
                let index = next
                let request = requests[index]
                group.addTask {
                    var compressed = request
                    compressed.httpBody = request.httpBody.map { Gzip.compress($0, level: compressionLevel) }
                    let response = try? await session.data(for: compressed).1
                    return (index, response as? HTTPURLResponse)
                }
                next += 1
            }
            while next < min(max(concurrency, 1), requests.count) { addNext() }
            for await (index, response) in group {
                responses[index] = response
                if next < requests.count, !isClosed { addNext() }
            }
            return responses
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

    private static func seconds(_ duration: Duration) -> TimeInterval {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
