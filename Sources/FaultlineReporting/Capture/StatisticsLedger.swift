import Foundation

/// The one owner of a reporter's counts: what it wrote and dropped, and what the refreshers it observes did. The
/// reporter and its writer count into it as things happen, without waiting; ``Reporter/statistics`` reads it; and it
/// alone hands drops to the uploader, for client reports, in one task at a time, so that capturing in an error storm
/// never waits for the uploader.
final class StatisticsLedger: @unchecked Sendable {
    /// What a client report counts a drop by.
    private struct Outcome: Hashable {
        let reason: DiscardReason
        let category: DataCategory
    }

    private struct State {
        var statistics = Reporter.Statistics()
        /// Drops not yet counted by the uploader.
        var unreported: [Outcome: Int] = [:]
        /// The task handing `unreported` to the uploader, while one runs.
        var handOver: Task<Void, Never>?
    }

    /// Where drops are reported; `nil` when events stay in the local log.
    private let uploader: Uploader?
    // Safe to share: `state` is the only mutable state, and every access to it holds `lock`, never across an `await`.
    private let lock = NSLock()
    private var state = State()

    /// Where drops and failed writes are said.
    private let diagnostics: Diagnostics

    init(uploader: Uploader?, diagnostics: Diagnostics) {
        self.uploader = uploader
        self.diagnostics = diagnostics
    }

    /// The counts now.
    var statistics: Reporter.Statistics {
        lock.withLock { state.statistics }
    }

    /// Changes the counts; a ``Reporter/Statistics/lastWriteError`` that differs from the one before is said as an
    /// error diagnostic.
    func record(_ change: (inout Reporter.Statistics) -> Void) {
        let (before, after) = lock.withLock {
            let before = state.statistics.lastWriteError
            change(&state.statistics)
            return (before, state.statistics.lastWriteError)
        }
        sayWriteError(after, before: before)
    }

    /// Says a write error that differs from the one before it.
    private func sayWriteError(_ error: String?, before: String?) {
        if let error, error != before { diagnostics(.error, "could not write to the local log: \(error)") }
    }

    /// Counts an event dropped for `reason` (a transaction when `category` is `.transaction`, with its `spans`, its
    /// own among them), in the statistics by `change` and, with an uploader, for its next client report: handed over by
    /// a task that starts unless one runs, and takes what was dropped while it waited.
    func discard(
        _ reason: DiscardReason, category: DataCategory = .error, spans: Int = 0,
        _ change: (inout Reporter.Statistics) -> Void = { _ in }
    ) {
        diagnostics(.debug, "dropped \(category == .transaction ? "a transaction" : "an event"): \(reason.rawValue)")
        let (before, after) = lock.withLock {
            let before = state.statistics.lastWriteError
            change(&state.statistics)
            if uploader != nil {
                state.unreported[Outcome(reason: reason, category: category), default: 0] += 1
                // Sentry's client reports count a dropped transaction's spans too, under `span`.
                if spans > 0 { state.unreported[Outcome(reason: reason, category: .span), default: 0] += spans }
                if state.handOver == nil { state.handOver = Task { await self.handOverUntilEmpty() } }
            }
            return (before, state.statistics.lastWriteError)
        }
        sayWriteError(after, before: before)
    }

    /// Waits until the drops counted so far have reached the uploader: the running hand-over, then the drops counted
    /// after it last looked.
    func reportDiscards() async {
        await lock.withLock { state.handOver }?.value
        let next: Task<Void, Never>? = lock.withLock {
            guard state.handOver == nil, !state.unreported.isEmpty else { return state.handOver }
            state.handOver = Task { await self.handOverUntilEmpty() }
            return state.handOver
        }
        await next?.value
    }

    /// Hands the drops to the uploader until none is left, then marks the hand-over finished.
    private func handOverUntilEmpty() async {
        while let discards = takeUnreported() {
            for (outcome, quantity) in discards {
                await uploader?.recordDiscarded(outcome.reason, category: outcome.category, quantity: quantity)
            }
        }
    }

    /// The drops not yet handed over, taken; `nil`, ending the hand-over, when there are none.
    private func takeUnreported() -> [Outcome: Int]? {
        lock.withLock {
            guard !state.unreported.isEmpty else {
                state.handOver = nil
                return nil
            }
            defer { state.unreported = [:] }
            return state.unreported
        }
    }
}
