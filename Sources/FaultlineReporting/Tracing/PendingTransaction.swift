/// A transaction waiting in the reporter's queue: the span that started this process's part of a trace, and the spans
/// that ended in it while it ran.
struct PendingTransaction: Sendable {
    /// The span the transaction is: its name, operation, timing and status.
    let root: FinishedSpan
    /// The spans that ended in it, in the order they ended; at most ``maximumSpans``, later ones are left out.
    let spans: [FinishedSpan]

    /// The most spans a transaction holds, as Sentry's SDKs' `maxSpans`.
    static let maximumSpans = 1000
}
