import Faultline
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A request that another HTTP stack sends (Alamofire, Moya, your own URLSession code), recorded as the
/// ``CaptureMiddleware`` records `APIClient`'s: started before it is sent, finished when it ends. It is counted by
/// route with its duration (the denominators and percentiles of `faultline routes`), becomes a span of its trace
/// (whose headers ``request`` carries) and an `http` breadcrumb, and a failure the options select is captured,
/// classified as `APIClient` classifies it.
///
/// ```swift
/// let recording = RequestRecording(reporter: reporter, request: urlRequest, route: "/users/{id}", baseURL: api)
/// let (data, response) = try await session.data(for: recording.request)
/// await recording.finish(response: response as? HTTPURLResponse, body: data)
/// ```
///
/// A cancellation is neither captured, counted nor recorded. Finish each recording once.
public struct RequestRecording: Sendable {
    /// The reporter it is recorded by.
    public let reporter: Reporter
    /// The request to send: the one given, with the trace's `sentry-trace`, `baggage` and `traceparent` headers when
    /// its URL is one of ``Reporter/Options/tracePropagationTargets`` (by default, under the base URL).
    public let request: URLRequest
    /// The request as given, which a captured event describes (its trace headers are in the event's `trace`).
    private let original: URLRequest
    private let context: RequestContext
    private let span: RequestSpan
    private let baseURL: URL
    private let start: ContinuousClock.Instant

    /// Starts recording `request`, of a client on `baseURL`, whose route template is `route` (`/users/{id}`, which
    /// groups every user's failures into one issue and counts them as one route; never the URL's path). The code
    /// that starts it is the event's call site; a wrapper passes on its caller's `file`, `function` and `line`.
    public init(
        reporter: Reporter, request: URLRequest, route: String, baseURL: URL, file: String = #fileID,
        function: String = #function, line: Int = #line
    ) {
        let url = request.url ?? baseURL
        context = RequestContext(
            requestID: RandomID.make(), method: HTTPMethod(rawValue: request.httpMethod ?? "GET"), route: route,
            url: url, allowsRetry: false, callSite: CallSite(fileID: file, function: function, line: line))
        span = reporter.startRequestSpan(for: context, baseURL: baseURL)
        self.reporter = reporter
        self.request = span.propagates ? request.carrying(span) : request
        original = request
        self.baseURL = baseURL
        start = .now
    }

    /// Records how the request ended: its response and body, or the transport error that left it without one, and
    /// the error thrown when a successful body did not decode into `decodedType`, all classified with `classifier`
    /// (the server's error contract and code catalogue), as `APIClient` classifies them.
    ///
    /// - Returns: The failure, classified; `nil` for a success.
    @discardableResult
    public func finish(
        response: HTTPURLResponse?, body: Data?, error: (any Error)? = nil, decodingError: (any Error)? = nil,
        decodedType: Any.Type? = nil, classifier: FailureClassifier = FailureClassifier()
    ) async -> RequestFailure? {
        let duration = ContinuousClock.now - start
        var context = context
        context.statusCode = response?.statusCode
        guard
            let reason = classifier.reason(
                response: response, body: body, transportError: error, decodingError: decodingError,
                decodedType: decodedType ?? Any.self)
        else {
            await reporter.record(
                .response(context, status: response?.statusCode ?? 0, duration: duration), span: span,
                baseURL: baseURL)
            return nil
        }
        let failure = RequestFailure(reason, context: context)
        await reporter.record(.failure(failure, request: original, duration: duration), span: span, baseURL: baseURL)
        return failure
    }
}
