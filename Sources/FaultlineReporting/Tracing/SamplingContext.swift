/// What ``Reporter/Options/tracesSampler`` decides a trace's sampling from: the span that starts this process's part
/// of it.
public struct SamplingContext: Hashable, Sendable {
    /// The span's name: a request's method and route template (`GET /users/{id}`), or the name given to
    /// ``Reporter/withSpan(_:operation:_:)``.
    public let name: String
    /// The span's operation, such as `http.client` for a request.
    public let operation: String
    /// The decision of the service that started the trace, when this process continues it.
    public let parentSampled: Bool?
}
