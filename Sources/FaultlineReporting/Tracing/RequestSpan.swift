import Faultline
import Foundation

/// The span of a request a capture middleware sends: started before the request goes out, so that the request carries
/// its trace headers, and finished by the reporter with the request's outcome.
package struct RequestSpan: Sendable {
    let context: SpanContext
    let start: Date
    /// Whether the request goes to one of ``Reporter/Options/tracePropagationTargets``.
    package let propagates: Bool
    /// Whether it also carries `traceparent`.
    let propagatesTraceparent: Bool

    /// Whether the request starts this process's part of its trace, and so is a transaction of its own.
    var isTransaction: Bool { context.transactionSpanID == context.spanID }

    /// The trace headers to set on the request: `sentry-trace`, `baggage` (the request's own, `existingBaggage`, with
    /// the trace's `sentry-` members) and `traceparent`; none when the request does not go to a propagation target, or
    /// already carries a `sentry-trace` of its own (`hasSentryTrace`).
    package func headers(hasSentryTrace: Bool, existingBaggage: String?) -> [(name: String, value: String)] {
        guard propagates, !hasSentryTrace else { return [] }
        var headers = [
            (name: "sentry-trace", value: context.sentryTrace),
            (name: "baggage", value: context.samplingContext.merged(intoBaggage: existingBaggage)),
        ]
        if propagatesTraceparent { headers.append((name: "traceparent", value: context.traceparent)) }
        return headers
    }

    /// The finished span of the request, with its outcome: `http.client`, described by method and route template,
    /// with the (already scrubbed) URL and query, the method, the status and the outcome as `routes` counts it.
    func finished(_ outcome: RequestOutcome, url: (url: String, queryString: String?)) -> FinishedSpan {
        let request = outcome.context
        var data: [String: JSONValue] = [
            "http.request.method": .string(request.method.rawValue), "url": .string(url.url),
            "http.route": .string(request.route), "faultline.request_id": .string(request.requestID),
        ]
        if let query = url.queryString { data["http.query"] = .string(query) }
        if let outcome = outcome.name { data["faultline.outcome"] = .string(outcome) }
        let status: SpanStatus
        let duration: Duration
        switch outcome {
        case .response(_, let code, let elapsed):
            data["http.response.status_code"] = .int(code)
            (status, duration) = (SpanStatus(httpStatus: code), elapsed)
        case .failure(let failure, _, let elapsed):
            if let code = failure.context.statusCode { data["http.response.status_code"] = .int(code) }
            (status, duration) = (SpanStatus(failure), elapsed)
        case .failedAfterResponse(let failure, _):
            (status, duration) = (SpanStatus(failure), .zero)
        }
        return FinishedSpan(
            context: context, operation: "http.client", description: request.endpoint, start: start,
            end: start + duration.timeInterval, status: status, data: data, origin: FinishedSpan.requestOrigin)
    }
}
