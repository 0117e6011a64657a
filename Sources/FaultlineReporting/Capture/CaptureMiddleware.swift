import Faultline
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Captures the client's failures as events, counts every request's outcome and duration by route
/// (``Reporter/Options/recordsRequestOutcomes``), makes it a span of its trace, whose headers (`sentry-trace`,
/// `baggage`, `traceparent`) it carries to ``Reporter/Options/tracePropagationTargets``, and records it as an `http`
/// breadcrumb.
///
/// Put it first in `APIClient.Configuration.middlewares` so that it sees each request's final outcome, after
/// retries and token refreshes: its duration is the caller's wait, retries included. Cancellations are neither
/// captured, counted nor recorded. A session expiry shared by many requests is captured once. Which failures are
/// captured is set by ``Reporter/Options/failedRequestStatusCodes`` and ``Reporter/Options/failedRequestTargets``.
public struct CaptureMiddleware: APIMiddleware {
    /// The reporter events go to.
    public let reporter: Reporter
    /// The client's base URL: by default only failures of requests under it are captured.
    public let baseURL: URL

    /// Creates a capture middleware for a client on `baseURL`.
    public init(reporter: Reporter, baseURL: URL) {
        self.reporter = reporter
        self.baseURL = baseURL
    }

    public func intercept<Value: Sendable>(
        _ request: URLRequest, context: RequestContext, next: APIMiddlewareNext<Value>
    ) async throws(RequestFailure) -> APIResponse<Value> {
        let span = reporter.startRequestSpan(for: context, baseURL: baseURL)
        // The event records the request without its trace headers, which its `trace` context names.
        let traced = span.propagates ? request.carrying(span) : request
        let start = ContinuousClock.now
        do throws(RequestFailure) {
            let response = try await next(traced, context)
            let duration = ContinuousClock.now - start
            await reporter.record(
                .response(response.context, status: response.statusCode, duration: duration), span: span,
                baseURL: baseURL)
            return response
        } catch {
            let duration = ContinuousClock.now - start
            await reporter.record(
                .failure(error, request: request, duration: duration), span: span, baseURL: baseURL)
            throw error
        }
    }
}
