import Faultline
import FaultlineRecords
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How a request that a capture middleware saw ended, for ``Reporter/record(_:baseURL:)``.
package enum RequestOutcome: Sendable {
    /// A response the client accepted, with its status, `duration` after the request started.
    case response(RequestContext, status: Int, duration: Duration)
    /// A failure (a cancellation too), with the request as sent, whose scrubbed headers the event carries.
    case failure(RequestFailure, request: URLRequest?, duration: Duration)
    /// A failure found after its response was recorded as accepted, as the OpenAPI runtime decodes a response after
    /// the middlewares: its request is counted once, as this failure.
    case failedAfterResponse(RequestFailure, request: URLRequest?)

    /// The request's context.
    var context: RequestContext {
        switch self {
        case .response(let context, _, _): context
        case .failure(let failure, _, _), .failedAfterResponse(let failure, _): failure.context
        }
    }

    /// Whether it is a failure found after the response was recorded as accepted (``failedAfterResponse(_:request:)``).
    var isFoundAfterResponse: Bool {
        if case .failedAfterResponse = self { true } else { false }
    }

    /// Whether the request was cancelled: neither captured, counted nor recorded.
    var isCancelled: Bool {
        switch self {
        case .response: false
        case .failure(let failure, _, _), .failedAfterResponse(let failure, _): failure.isCancelled
        }
    }

    /// How the request ended, as ``RequestOutcomes`` counts it: `ok`, or the failure's kind and, when a response came,
    /// its status class (`server.4xx`); `nil` for a cancellation, which is not counted.
    var name: String? {
        switch self {
        case .response: return RequestOutcomes.success
        case .failure(let failure, _, _), .failedAfterResponse(let failure, _):
            guard let kind = FailureKind(failure.reason) else { return nil }
            guard let status = failure.context.statusCode else { return kind.rawValue }
            return "\(kind.rawValue).\(status / 100)xx"
        }
    }

    /// The `http` breadcrumb of the request: its URL (`url`, already scrubbed), method, route, request id, status and,
    /// for a failure, its kind; the level is `error` from 500 on (and for a failure without a status), `warning` from
    /// 400 on, `info` below.
    func breadcrumb(url: String, at date: Date) -> Breadcrumb {
        let context = context
        var data: [String: JSONValue] = [
            "url": .string(url), "method": .string(context.method.rawValue), "http.route": .string(context.route),
            "request_id": .string(context.requestID),
        ]
        let level: Breadcrumb.Level
        switch self {
        case .response(_, let status, _):
            data["status_code"] = .int(status)
            level = status >= 500 ? .error : status >= 400 ? .warning : .info
        case .failure(let failure, _, _), .failedAfterResponse(let failure, _):
            if let status = failure.context.statusCode { data["status_code"] = .int(status) }
            data["reason"] = .string(FailureKind(failure.reason)?.rawValue ?? "cancelled")
            level = (failure.context.statusCode ?? 500) >= 500 ? .error : .warning
        }
        return Breadcrumb(
            type: "http", category: "http", level: level, message: context.endpoint, data: data, date: date)
    }
}
