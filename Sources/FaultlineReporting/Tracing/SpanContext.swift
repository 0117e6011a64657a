import Foundation

/// Where a span sits in a trace, as Sentry's `sentry-trace` header and an event's `trace` context name it: its trace,
/// its own id, its parent's, and the trace's sampling decision, made once where the trace starts and kept by every
/// span of it.
///
/// ``current`` is the span the running task is in: ``Reporter/withSpan(_:operation:_:)`` sets it around its body, and
/// the capture middlewares make each request a child of it, so an app's own "load profile screen" span holds the
/// requests it makes. A server that continues a caller's trace sets it from the request's headers
/// (``init(sentryTrace:baggage:)``).
public struct SpanContext: Hashable, Sendable {
    /// The trace: 32 lowercase hex digits.
    public let traceID: String
    /// The span: 16 lowercase hex digits.
    public let spanID: String
    /// The span this one is a child of; `nil` for the first span of a trace on this device (a transaction).
    public let parentSpanID: String?
    /// Whether the trace is recorded: `true` or `false` once its first span decided, `nil` while the decision is left
    /// to whoever starts a span in it (a trace continued without one, or tracing off).
    public let isSampled: Bool?
    /// The span that starts this process's part of the trace, the transaction its spans are sent in; `nil` for a span
    /// of another service, continued from its headers.
    let transactionSpanID: String?
    /// The trace's dynamic sampling context, which `baggage` carries to the services it calls.
    let samplingContext: DynamicSamplingContext

    init(
        traceID: String, spanID: String, parentSpanID: String?, isSampled: Bool?, transactionSpanID: String?,
        samplingContext: DynamicSamplingContext
    ) {
        self.traceID = traceID
        self.spanID = spanID
        self.parentSpanID = parentSpanID
        self.isSampled = isSampled
        self.transactionSpanID = transactionSpanID
        self.samplingContext = samplingContext
    }

    /// The span the running task is in; `nil` outside any.
    @TaskLocal public static var current: SpanContext?

    /// The `sentry-trace` header of a request sent from this span: `{trace id}-{span id}`, then `-1` or `-0` once the
    /// trace's sampling is decided.
    public var sentryTrace: String {
        switch isSampled {
        case true?: "\(traceID)-\(spanID)-1"
        case false?: "\(traceID)-\(spanID)-0"
        case nil: "\(traceID)-\(spanID)"
        }
    }

    /// The `baggage` header of a request sent from this span: the trace's dynamic sampling context, as `sentry-`
    /// members, which lets the services it calls sample as this trace was.
    public var baggage: String { samplingContext.baggage }

    /// The W3C `traceparent` header of a request sent from this span: version 00, and the sampled flag.
    public var traceparent: String {
        "00-\(traceID)-\(spanID)-\(isSampled == true ? "01" : "00")"
    }

    /// The `trace` context of an event captured in this span, which links the event to the span and its trace.
    var traceContext: [String: JSONValue] {
        var context: [String: JSONValue] = ["trace_id": .string(traceID), "span_id": .string(spanID)]
        if let parentSpanID { context["parent_span_id"] = .string(parentSpanID) }
        return context
    }

    /// The span of another service that sent a request with these headers, for a server that continues its caller's
    /// trace: set it as ``current`` around the request's handling, and the spans and events there join that trace,
    /// sampled as the caller decided. `nil` when `sentryTrace` is not a `sentry-trace` header.
    public init?(sentryTrace: String, baggage: String? = nil) {
        let parts = sentryTrace.trimmingCharacters(in: .whitespaces).split(
            separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, Self.isHex(parts[0], count: 32), Self.isHex(parts[1], count: 16)
        else { return nil }
        let sampled: Bool?
        switch parts.count == 3 ? parts[2] : nil {
        case "1"?: sampled = true
        case "0"?: sampled = false
        case nil: sampled = nil
        default: return nil
        }
        let traceID = String(parts[0])
        var samplingContext = baggage.map(DynamicSamplingContext.init(baggage:)) ?? DynamicSamplingContext()
        if samplingContext.traceID != traceID {
            // Members of another trace, or none: this process becomes the trace's head for sampling.
            samplingContext = DynamicSamplingContext(traceID: traceID)
        }
        self.init(
            traceID: traceID, spanID: String(parts[1]), parentSpanID: nil, isSampled: sampled, transactionSpanID: nil,
            samplingContext: samplingContext)
    }

    private static func isHex(_ text: Substring, count: Int) -> Bool {
        text.utf8.count == count && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
