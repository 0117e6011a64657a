/// Carries an ``Uploader``'s requests to the endpoint. The uploader decides what to send and what the answer means;
/// a transport only posts and reports the answer.
///
/// ``URLSessionEnvelopeTransport`` is the default, on every platform. On Linux, where URLSession is
/// FoundationNetworking over libcurl, the `FaultlineAsyncHTTPClient` library's transport costs about half the CPU
/// per request: use it in server-side apps.
///
/// An uploader cancels its transport's requests when it closes: give each uploader a transport of its own.
public protocol EnvelopeTransport: Sendable {
    /// Posts `request`; the endpoint's answer, or `nil` when none came (the connection failed, the request timed out
    /// or was cancelled).
    func send(_ request: EnvelopeRequest) async -> EnvelopeResponse?

    /// Cancels the requests in flight, including those still starting, and fails every later request: their
    /// ``send(_:)`` returns `nil` soon after, or at once. The uploader calls it when it closes.
    func cancelRequestsInFlight() async
}
