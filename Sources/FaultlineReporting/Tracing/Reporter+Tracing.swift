import Faultline
import Foundation

extension Reporter {
    /// Runs `body` in a span named `name`, and returns what it returns: a child of the span the task is in, else the
    /// first span of a new trace, which becomes a transaction when the trace is sampled (``Options/tracesSampleRate``).
    /// The requests the capture middlewares see in `body` are its children, and carry its trace to the server; events
    /// captured in it carry its `trace` context. Its status is `ok`, or, when `body` throws, the failure's (for a
    /// `RequestFailure`) else `internal_error`; the error is rethrown.
    ///
    /// ```swift
    /// let profile = try await reporter.withSpan("load profile screen", operation: "ui.load") {
    ///     try await client.send(ProfileRequest(id: 7))
    /// }
    /// ```
    ///
    /// `body` runs on the caller's actor. A transaction holds the spans that end while its body runs, at most 1000; a task its body leaves running adds
    /// nothing after it returned.
    nonisolated(nonsending) public func withSpan<Value, Failure: Error>(
        _ name: String, operation: String = "function", _ body: () async throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let span = tracer.startSpan(name, operation: operation, parent: SpanContext.current)
        let start = options.clock()
        let began = ContinuousClock.now
        let user = RequestUser.current
        let records = tracer.isRecording && span.isSampled == true
        if records, span.transactionSpanID == span.spanID { await open(span) }
        let result: Result<Value, Failure> = await SpanContext.$current.withValue(span) {
            do throws(Failure) {
                return .success(try await body())
            } catch {
                return .failure(error)
            }
        }
        if tracer.isRecording, span.isSampled != nil {
            let status: SpanStatus
            switch result {
            case .success: status = .ok
            case .failure(let error): status = (error as? RequestFailure).map(SpanStatus.init) ?? .internalError
            }
            let finished = FinishedSpan(
                context: span, operation: operation, description: name, start: start,
                end: start + (ContinuousClock.now - began).timeInterval, status: status, data: [:],
                origin: FinishedSpan.manualOrigin)
            await finish(finished, user: user)
        }
        return try result.get()
    }

    /// Starts the span of a request a capture middleware is about to send: a child of the span the task is in, else
    /// the first of a new trace. Its headers go on the request when `context`'s URL is one of
    /// ``Options/tracePropagationTargets`` (by default, under `baseURL`).
    nonisolated package func startRequestSpan(for context: RequestContext, baseURL: URL) -> RequestSpan {
        RequestSpan(
            context: tracer.startSpan(context.endpoint, operation: "http.client", parent: SpanContext.current),
            start: options.clock(), propagates: options.propagatesTrace(to: context.url, baseURL: baseURL),
            propagatesTraceparent: options.propagatesTraceparent)
    }

    /// Opens the transaction `span` starts, which collects the spans that end in it until it ends.
    private func open(_ span: SpanContext) {
        recorder.open(span)
    }

    /// Records a span of the app's that ended, after the requests that ended before it.
    private func finish(_ span: FinishedSpan, user: UserContext?) {
        takeHandedOver()
        record(span, user: user)
    }

    /// Counts a transaction the trace's sampling left out, with its span, as Sentry's client reports count it.
    func discardUnsampledTransaction() {
        ledger.discard(.sampleRate, .transaction, spans: 1)
    }

    /// Records a span that ended: a sampled transaction is queued with the spans that ended in it, and a span in one
    /// is added to it; a transaction not sampled is counted as dropped by `sample_rate`, with its spans. Nothing is
    /// recorded when traces are not (a trace a caller sampled is only propagated then, as Sentry's SDKs do).
    func record(_ span: FinishedSpan, user: UserContext?) {
        guard tracer.isRecording else { return }
        switch recorder.record(span) {
        case .transaction(let spans): submit(PendingTransaction(root: span, spans: spans), user: user)
        case .unsampled: discardUnsampledTransaction()
        case .kept, .leftOut: break
        }
    }
}
