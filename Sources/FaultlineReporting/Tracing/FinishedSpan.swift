import Foundation

/// A span that ended: a request the capture middlewares timed, or an app's ``Reporter/withSpan(_:operation:_:)``,
/// as Sentry's span interface records it.
struct FinishedSpan: Sendable {
    let context: SpanContext
    /// What kind of work it was, such as `http.client`.
    let operation: String
    /// What it did, such as `GET /users/{id}`; ``Reporter/Options/beforeSendTransaction`` may change it.
    var description: String
    let start: Date
    let end: Date
    /// How it ended, in Sentry's span statuses.
    let status: SpanStatus
    /// Its attributes, such as `http.request.method` and `http.response.status_code`;
    /// ``Reporter/Options/beforeSendTransaction`` may change them.
    var data: [String: JSONValue]
    /// What recorded it: ``requestOrigin`` for a request, ``manualOrigin`` for the app's own.
    let origin: String

    /// The origin of the spans of requests the capture middlewares time.
    static let requestOrigin = "auto.http.faultline"
    /// The origin of the spans the app makes.
    static let manualOrigin = "manual"

    /// Whether it starts this process's part of its trace, and so is sent as a transaction rather than in one.
    var isTransaction: Bool { context.transactionSpanID == context.spanID }

    /// The span as a transaction's `spans` list holds it.
    var json: JSONValue {
        var span = traceMembers
        span["description"] = .string(description)
        span["start_timestamp"] = .double(Self.seconds(start))
        span["timestamp"] = .double(Self.seconds(end))
        return .object(span)
    }

    /// The `trace` context of the transaction it starts.
    var traceContext: JSONValue { .object(traceMembers) }

    /// What a span and a transaction's `trace` context both say of it.
    private var traceMembers: [String: JSONValue] {
        var members = context.traceContext
        members["op"] = .string(operation)
        members["status"] = .string(status.rawValue)
        members["origin"] = .string(origin)
        if !data.isEmpty { members["data"] = .object(data) }
        return members
    }

    /// Seconds since 1970 to the microsecond, as Sentry's timestamps are numbers.
    static func seconds(_ date: Date) -> Double {
        (date.timeIntervalSince1970 * 1_000_000).rounded() / 1_000_000
    }
}
