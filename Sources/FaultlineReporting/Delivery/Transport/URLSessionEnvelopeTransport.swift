import Faultline
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Posts envelopes with a URLSession of its own: ephemeral, without cache, cookies or credentials, over reused
/// connections. The default transport.
public final class URLSessionEnvelopeTransport: EnvelopeTransport {
    private let session: URLSession

    /// Creates a transport that opens at most `maximumConnections` connections to the endpoint.
    public init(maximumConnections: Int = 4) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = maximumConnections
        // Envelopes are never cached and carry no cookies or credentials; FoundationNetworking looks in its disk
        // cache for every request unless there is none.
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCredentialStorage = nil
        session = URLSession(configuration: configuration)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    public func send(_ request: EnvelopeRequest) async -> EnvelopeResponse? {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = "POST"
        urlRequest.timeoutInterval = request.timeout.timeInterval
        for (name, value) in request.headerFields {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        urlRequest.httpBody = request.body
        guard let response = try? await session.data(for: urlRequest).1 as? HTTPURLResponse else { return nil }
        return EnvelopeResponse(
            statusCode: response.statusCode,
            rateLimits: response.value(forHTTPHeaderField: "X-Sentry-Rate-Limits"),
            retryAfter: response.value(forHTTPHeaderField: "Retry-After"))
    }

    public func cancelRequestsInFlight() async {
        // Cancelling the tasks that await `data(for:)` instead would cancel from inside their cancellation handler,
        // which deadlocks in FoundationNetworking when the request completes at the same moment (seen in CI).
        let inFlight = await withCheckedContinuation { continuation in
            session.getAllTasks { continuation.resume(returning: $0) }
        }
        for task in inFlight { task.cancel() }
    }
}
