import FaultlineReporting
import Foundation

/// The `sentry-trace` and `baggage` headers of a request a server continues (``SpanContext/init(sentryTrace:baggage:)``):
/// the first line is the `sentry-trace` header, the rest the `baggage` header. A trace read is written back as the
/// headers a request from it carries, which read again to the same span, decision and sampling context.
enum TraceHeadersFuzzing {
    static func run(_ data: Data) throws(Disagreement) {
        let text = String(decoding: data, as: UTF8.self)
        let lines = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        let baggage = lines.count > 1 ? String(lines[1]) : nil
        guard let span = SpanContext(sentryTrace: String(lines.first ?? ""), baggage: baggage) else { return }
        try Disagreement.check(
            span.traceID.utf8.count == 32 && span.spanID.utf8.count == 16,
            "a trace read from \(text.debugDescription) has ids \(span.traceID) and \(span.spanID)")
        try Disagreement.check(
            span.baggage.contains("sentry-trace_id=\(span.traceID)"),
            "the baggage \(span.baggage) of a trace read from \(text.debugDescription) names another trace")
        let again = SpanContext(sentryTrace: span.sentryTrace, baggage: span.baggage)
        try Disagreement.check(
            again == span,
            "the headers \(span.sentryTrace) and \(span.baggage) of a trace read from \(text.debugDescription) read "
                + "back as another trace")
    }
}
