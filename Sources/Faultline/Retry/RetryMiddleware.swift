import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Retries failed requests as its ``RetryPolicy`` says, sleeping on an injectable clock.
public struct RetryMiddleware: APIMiddleware {
    /// When and how long to wait before a retry.
    public let policy: RetryPolicy
    private let clock: any Clock<Duration>

    /// Creates a retry middleware.
    ///
    /// - Parameters:
    ///   - policy: When to retry; ``RetryPolicy/default`` by default.
    ///   - clock: The clock the delays are slept on; a `ContinuousClock` by default. Tests pass a clock that does not
    ///     really wait.
    public init(policy: RetryPolicy = .default, clock: any Clock<Duration> = ContinuousClock()) {
        self.policy = policy
        self.clock = clock
    }

    public func intercept<Value: Sendable>(
        _ request: URLRequest, context: RequestContext, next: APIMiddlewareNext<Value>
    ) async throws(RequestFailure) -> APIResponse<Value> {
        var context = context
        var retry = 0
        while true {
            do throws(RequestFailure) {
                return try await next(request, context)
            } catch {
                retry += 1
                guard let delay = policy.delay(beforeRetry: retry, after: error) else { throw error }
                do {
                    try await clock.sleep(for: delay)
                } catch {
                    throw RequestFailure(.cancelled, context: context)
                }
                context.attempt = error.context.attempt + 1
                context.statusCode = nil
            }
        }
    }
}
