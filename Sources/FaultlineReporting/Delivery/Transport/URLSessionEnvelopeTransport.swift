import Faultline
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Posts envelopes with a URLSession of its own: ephemeral, without cache, cookies or credentials, over reused
/// connections. The default transport.
public actor URLSessionEnvelopeTransport: EnvelopeTransport {
    private let session: URLSession
    /// The requests started and not answered yet, by task identifier.
    private var inFlight: [Int: URLSessionDataTask] = [:]
    private var isCancelled = false

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
        guard !isCancelled else { return nil }
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = "POST"
        urlRequest.timeoutInterval = request.timeout.timeInterval
        for (name, value) in request.headerFields {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        urlRequest.httpBody = request.body
        // The task is created and registered in one step on the actor, so a cancellation either finds it or comes
        // first. Swift's task cancellation is not used: cancelling from inside the cancellation handler of
        // `data(for:)` deadlocks in FoundationNetworking when the request completes at the same moment (seen in CI).
        var identifier = 0
        let response = await withCheckedContinuation { continuation in
            let task = session.dataTask(with: urlRequest) { _, response, _ in
                continuation.resume(returning: response as? HTTPURLResponse)
            }
            identifier = task.taskIdentifier
            inFlight[identifier] = task
            task.resume()
        }
        inFlight[identifier] = nil
        guard let response else { return nil }
        return EnvelopeResponse(
            statusCode: response.statusCode,
            rateLimits: response.value(forHTTPHeaderField: "X-Sentry-Rate-Limits"),
            retryAfter: response.value(forHTTPHeaderField: "Retry-After"),
            sentryError: response.value(forHTTPHeaderField: "X-Sentry-Error"))
    }

    /// Cancels the requests in flight and fails every later one at once.
    public func cancelRequestsInFlight() {
        isCancelled = true
        for task in inFlight.values { task.cancel() }
    }
}
