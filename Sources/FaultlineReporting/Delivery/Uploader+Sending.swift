import Faultline
import Foundation

/// The send loop: which envelope goes next, and what each answer means for it.
extension Uploader {
    /// Starts sending what waits, unless sending already runs or the uploader is closed.
    func startDraining() {
        guard drainTask == nil, !isClosed else { return }
        drainTask = Task { await drain() }
    }

    /// Sends stored envelopes, oldest first, with up to ``Configuration/maxConcurrentRequests`` in flight: each
    /// response frees a place for the next envelope, including those stored meanwhile. Stops when nothing is sendable
    /// now, then schedules the next attempt.
    private func drain() async {
        defer {
            drainTask = nil
            storeCursor(force: true)
            storeStatistics(force: isEmpty)
            if isEmpty { idleWaiters.resume { true } }
        }
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

    /// The oldest logged event, or else the oldest stored envelope, that may be sent now, stamped with `sent_at` and
    /// carrying the pending client report when no other envelope in flight carries one; `nil` when the uploader is
    /// closed or backing off, or none is sendable. What cannot be read is dropped and counted.
    private func nextEnvelope() -> (PendingEnvelope, Data)? {
        let now = clock.now
        guard !isClosed, retryAt.map({ $0 <= now }) ?? true else { return nil }
        let limits = rateLimits
        let isSendable = { (category: DataCategory) in limits.deadline(for: category, at: now) == nil }
        if logQueue != nil {
            let logged = take(from: &logQueue!, isLogged: true, where: isSendable)
            let skipped = logQueue?.takeSkippedLines() ?? 0
            if skipped > 0 { recordDiscarded(.internalSDKError, quantity: skipped) }
            if let logged { return logged }
        }
        return take(from: &outbox, isLogged: false, where: isSendable)
    }

    /// The oldest record of `queue` of a sendable category, in its envelope; records that cannot be read back are
    /// dropped and counted (`cache_overflow` when the log evicted them, else `internal_sdk_error`).
    private func take<Segments>(
        from queue: inout DurableQueue<Segments>, isLogged: Bool, where isSendable: (DataCategory) -> Bool
    ) -> (PendingEnvelope, Data)? {
        while let entry = queue.next(where: isSendable) {
            let pending = PendingEnvelope(entry: entry, isLogged: isLogged)
            var report = takeReportToCarry()
            var items: [Envelope.Item] = []
            if let carried = report {
                if let item = try? carried.item(at: Date()) {
                    items.append(item)
                } else {
                    pendingReport.merge(carried)
                    report = nil
                }
            }
            do {
                let envelope = try queue.envelope(of: entry, sentAt: Date(), appending: items)
                if let report { reportCarrier = (pending, report) }
                return (pending, envelope)
            } catch {
                if let report { pendingReport.merge(report) }
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

    /// The pending client report, taken out to ride along with the next envelope, unless one in flight carries it.
    private func takeReportToCarry() -> ClientReport? {
        reportCarrier == nil && !pendingReport.isEmpty ? pendingReport.drain() : nil
    }

    /// Applies the delivery policy to the response to `pending`'s request (`nil` for a network error): reads the rate
    /// limits, deletes the envelope (or passes the logged event) unless it is to be retried, and backs off after a
    /// failure. The client report it carried is counted again unless it was delivered.
    private func apply(_ response: EnvelopeResponse?, to pending: PendingEnvelope) {
        let now = clock.now
        if let response {
            rateLimits.update(
                status: response.statusCode,
                rateLimits: response.rateLimits, retryAfter: response.retryAfter, now: now)
        }
        let policy = DeliveryPolicy(status: response?.statusCode)
        if let carrier = reportCarrier, carrier.envelope == pending {
            reportCarrier = nil
            if policy != .delivered { pendingReport.merge(carrier.report) }
        }
        switch policy {
        case .delivered:
            remove(pending)
            counts.delivered += 1
            failuresInARow = 0
        case .retry where response == nil && isClosed:
            retry(pending)  // stopped by close(timeout:): not a failed attempt
        case .retry:
            retry(pending)
            counts.retried += 1
            // The requests already in flight when the endpoint failed fail too: they extend no backoff.
            if retryAt.map({ $0 <= now }) ?? true {
                failuresInARow += 1
                retryAt = now + configuration.backoff.delay(beforeRetry: failuresInARow)
            }
        case .drop:
            remove(pending)
            discard(pending.category, because: .sendError)
            refusedSinceFlush += 1
            failuresInARow = 0
        }
    }

    /// Takes a delivered or dropped envelope out of what waits.
    private func remove(_ pending: PendingEnvelope) {
        if pending.isLogged { logQueue?.remove(pending.entry) } else { outbox.remove(pending.entry) }
    }

    /// Puts an envelope whose send failed back among those that wait; one whose segment (or log file) was evicted
    /// meanwhile is dropped instead, counted as `cache_overflow`.
    private func retry(_ pending: PendingEnvelope) {
        let kept = pending.isLogged ? logQueue?.retry(pending.entry) ?? true : outbox.retry(pending.entry)
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
        let indexed = Array(outbox.waitingCategories) + (logQueue.map { Array($0.waitingCategories) } ?? [])
        if indexed.contains(where: { !isLimited($0) }) {
            scheduleWakeUp(at: now)
            return
        }
        let waitingCategories =
            Array(outbox.waitingCategories) + (logQueue?.hasWaiting == true ? [DataCategory.error] : [])
        if let deadline = waitingCategories.compactMap({ rateLimits.deadline(for: $0, at: now) }).min() {
            scheduleWakeUp(at: deadline)
        }
    }
}
