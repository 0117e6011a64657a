import Foundation

/// A transaction as ``Reporter/Options/beforeSendTransaction`` sees it, before it is written and sent: its name, tags
/// and spans may be changed, and spans taken out; what it measured (operations, statuses, times, its trace) may not.
public struct TransactionEvent: Sendable {
    /// One span of the transaction.
    public struct Span: Sendable {
        /// The span as it ended, with what the hook changed.
        var finished: FinishedSpan

        /// What kind of work it was, such as `http.client`.
        public var operation: String { finished.operation }
        /// How it ended, as Sentry's span statuses name it: `ok`, `not_found`, `internal_error`.
        public var status: String { finished.status.rawValue }
        public var start: Date { finished.start }
        public var end: Date { finished.end }
        /// Its span id.
        public var spanID: String { finished.context.spanID }
        /// What it did, such as `GET /users/{id}`.
        public var description: String {
            get { finished.description }
            set { finished.description = newValue }
        }
        /// Its attributes, such as `http.request.method` and `url.full`.
        public var data: [String: JSONValue] {
            get { finished.data }
            set { finished.data = newValue }
        }
    }

    /// The span the transaction is.
    var root: FinishedSpan
    /// The spans that ended in it, in the order they ended.
    public var spans: [Span]
    /// The tags it is sent with: the scope's when it ended.
    public var tags: [String: String]

    /// The transaction's name (Sentry's `transaction`), such as `GET /users/{id}` or the name given to
    /// ``Reporter/withSpan(_:operation:_:)``.
    public var name: String {
        get { root.description }
        set { root.description = newValue }
    }
    /// What kind of work it was, such as `http.client` or `ui.load`.
    public var operation: String { root.operation }
    /// How it ended, as Sentry's span statuses name it.
    public var status: String { root.status.rawValue }
    public var start: Date { root.start }
    public var end: Date { root.end }
    /// The trace it is part of, and its own span.
    public var context: SpanContext { root.context }

    /// The transaction of `pending`, with `tags`.
    init(_ pending: PendingTransaction, tags: [String: String]) {
        root = pending.root
        spans = pending.spans.map { Span(finished: $0) }
        self.tags = tags
    }
}
