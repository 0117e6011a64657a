import Foundation

/// The one account of what became of a reporter's records, or a relay's envelopes: each record written, delivered or
/// dropped is counted here once, as it happens, by whoever settles it (the reporter's capture path and writer, the
/// uploader), and everything else is read from it: ``Reporter/Statistics``, the ``DeliveryStatistics`` stored beside
/// the outbox for `faultline stats`, the client reports sent upstream (what was dropped and no report has carried
/// yet) and the metrics adapter's counters. Counting never waits, so that capturing in an error storm never waits for
/// the uploader.
package final class RecordLedger: @unchecked Sendable {
    private struct State {
        /// What the reporter did since it started.
        var run = Reporter.Statistics()
        /// What was sent and not, across the runs over the same outbox; `nil` when nothing is sent.
        var delivery: DeliveryStatistics?
    }

    // Safe to share: `state` is the only mutable state, and every access to it holds `lock`, never across an `await`.
    private let lock = NSLock()
    private var state: State
    /// Where drops and failed writes are said.
    private let diagnostics: Diagnostics

    /// A ledger that counts deliveries on from `delivery` (an outbox's stored statistics), or, when it is `nil`, one
    /// of a reporter that sends nothing.
    init(delivery: DeliveryStatistics?, diagnostics: Diagnostics) {
        state = State(delivery: delivery)
        self.diagnostics = diagnostics
    }

    /// What the reporter did since it started; its ``Reporter/Statistics/delivery`` is not set.
    var statistics: Reporter.Statistics {
        lock.withLock { state.run }
    }

    /// What was sent and not, across runs; `nil` when nothing is sent.
    var delivery: DeliveryStatistics? {
        lock.withLock { state.delivery }
    }

    /// Counts what the reporter did that is not a drop: events and transactions written, refreshes and expiries seen,
    /// a write that failed without losing a record. A ``Reporter/Statistics/lastWriteError`` that differs from the one
    /// before is said as an error diagnostic.
    func record(_ change: (inout Reporter.Statistics) -> Void) {
        let (before, after) = lock.withLock {
            let before = state.run.lastWriteError
            change(&state.run)
            return (before, state.run.lastWriteError)
        }
        sayWriteError(after, before: before)
    }

    /// Counts `quantity` records of `category` dropped for `reason`, with `spans` more of the `span` category (a dropped
    /// transaction's spans, its own among them, as Sentry's client reports count them), said at the debug level. A
    /// drop because a record could not be written gives the `writeError`, counted in
    /// ``Reporter/Statistics/failedWrites``.
    func discard(
        _ reason: DiscardReason, _ category: DataCategory = .error, quantity: Int = 1, spans: Int = 0,
        writeError: String? = nil
    ) {
        diagnostics(.debug, "dropped \(Self.described(quantity, category)): \(reason.rawValue)")
        let (before, after) = lock.withLock {
            let before = state.run.lastWriteError
            state.run.discards.add(quantity, reason, category)
            state.run.discards.add(spans, reason, .span)
            state.delivery?.recordDiscarded(reason, category, quantity: quantity)
            if spans > 0 { state.delivery?.recordDiscarded(reason, .span, quantity: spans) }
            if let writeError {
                state.run.failedWrites += 1
                state.run.lastWriteError = writeError
            }
            return (before, state.run.lastWriteError)
        }
        sayWriteError(after, before: before)
    }

    /// Counts `quantity` records of `category` dropped because they waited past the maximum age, which client reports
    /// count as `cache_overflow`.
    func expire(_ category: DataCategory, quantity: Int) {
        diagnostics(.debug, "dropped \(Self.described(quantity, category)): past the maximum age")
        lock.withLock {
            state.run.discards.add(quantity, .cacheOverflow, category)
            state.delivery?.recordExpired(category, quantity: quantity)
        }
    }

    /// Counts what became of a send: delivered, retried, the last failure.
    func recordSend(_ change: (inout DeliveryStatistics) -> Void) {
        lock.withLock {
            guard state.delivery != nil else { return }
            change(&state.delivery!)
        }
    }

    /// The drops no client report has carried yet: what the next one carries.
    var unreported: DiscardCounts {
        lock.withLock { state.delivery?.unreported ?? DiscardCounts() }
    }

    /// Counts `report` as carried: the endpoint accepted it, or refused it for good.
    func recordReported(_ report: DiscardCounts) {
        lock.withLock { state.delivery?.recordReported(report) }
    }

    /// `an event`, `3 transactions`, `2 of session`.
    private static func described(_ quantity: Int, _ category: DataCategory) -> String {
        switch category {
        case .error: quantity == 1 ? "an event" : "\(quantity) events"
        case .transaction: quantity == 1 ? "a transaction" : "\(quantity) transactions"
        default: "\(quantity) of \(category.rawValue)"
        }
    }

    /// Says a write error that differs from the one before it.
    private func sayWriteError(_ error: String?, before: String?) {
        if let error, error != before { diagnostics(.error, "could not write to the local log: \(error)") }
    }
}
