import FaultlineRecords
import Foundation

/// Request recording, the reporter's stage between the capture front and the writer: how requests ended, counted by
/// route in intervals (``RequestOutcomes``), and the spans that end in each transaction under way, until its first
/// span ends and it is handed on. A value the reporter owns and calls in the order things happen; it keeps no clock
/// and no task, so each step is a function of what it is told and when.
struct RequestRecorder {
    /// What a span that ended becomes.
    enum SpanFate {
        /// The first span of a sampled transaction: the transaction, with the spans that ended in it, to be written.
        case transaction(spans: [FinishedSpan])
        /// The first span of a transaction the trace's sampling left out, to be counted as dropped.
        case unsampled
        /// A span added to its transaction, or one that belongs to no transaction under way (or to one already
        /// holding ``PendingTransaction/maximumSpans``), left out.
        case kept, leftOut
    }

    private let release: String?
    private let environment: String?
    /// The interval under way; `nil` until a request ends in it.
    private var interval: RequestOutcomes?
    /// Every request counted in the intervals ended so far.
    private(set) var totals = RequestTotals()
    /// The spans that ended in each transaction under way, by the id of its first span.
    private var openTransactions: [String: [FinishedSpan]] = [:]

    init(release: String?, environment: String?) {
        self.release = release
        self.environment = environment
    }

    /// Counts how a request that ended at `date` ended, in the interval under way, or in a new one that starts at
    /// `date` with the id `newID()`.
    ///
    /// - Returns: Whether it started a new interval, whose end the caller schedules.
    mutating func count(_ outcome: RequestOutcome, at date: Date, newID: () -> String) -> Bool {
        guard let name = outcome.name else { return false }
        let context = outcome.context
        let route = RequestOutcomes.Route(method: context.method.rawValue, route: context.route)
        let started = interval == nil
        var outcomes =
            interval ?? RequestOutcomes(id: newID(), start: date, release: release, environment: environment)
        switch outcome {
        case .response(_, _, let duration), .failure(_, _, let duration):
            outcomes.record(route, outcome: name, duration: duration)
        case .failedAfterResponse:
            outcomes.reclassifySuccess(of: route, as: name)
        }
        interval = outcomes
        return started
    }

    /// Ends the interval under way at `date` (at its start, when the clock went back), adding it to ``totals``.
    ///
    /// - Returns: The interval to write; `nil` when no request ended in it.
    mutating func endInterval(at date: Date) -> RequestOutcomes? {
        guard var outcomes = interval else { return nil }
        interval = nil
        outcomes.end = max(outcomes.start, date)
        totals.add(outcomes)
        return outcomes
    }

    /// Opens the transaction `span` starts, which collects the spans that end in it until it ends.
    mutating func open(_ span: SpanContext) {
        openTransactions[span.spanID] = []
    }

    /// Records a span that ended: the first span of a transaction closes it, any other joins its transaction.
    mutating func record(_ span: FinishedSpan) -> SpanFate {
        switch (span.isTransaction, span.context.isSampled) {
        case (true, true?):
            return .transaction(spans: openTransactions.removeValue(forKey: span.context.spanID) ?? [])
        case (true, false?):
            return .unsampled
        case (false, true?):
            guard let id = span.context.transactionSpanID,
                let count = openTransactions[id]?.count, count < PendingTransaction.maximumSpans
            else { return .leftOut }
            openTransactions[id]?.append(span)
            return .kept
        default:
            return .leftOut
        }
    }
}
