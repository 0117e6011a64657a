/// When and how long to wait before retrying a failed request.
///
/// Only requests that allow it are retried (idempotent methods, or those that opted in with
/// ``APIRequest/allowsRetry``). Decoding failures, session expiry and cancellation are never retried.
public struct RetryPolicy: Sendable {
    /// The most retries after the first attempt; 2 by default.
    public var maximumRetries: Int
    /// The delays between attempts.
    public var backoff: Backoff
    /// HTTP statuses worth retrying; 408, 429, 500, 502, 503 and 504 by default.
    public var retryableStatusCodes: Set<Int>
    /// Transport failures worth retrying; timeouts, lost connections and refused connections by default.
    public var retryableTransportFamilies: Set<TransportFailure.Family>
    /// Whether a `Retry-After` header sets the delay instead of the backoff; `true` by default.
    public var honorsRetryAfter: Bool
    /// The longest `Retry-After` the client waits for; a longer one ends the retries at once, returning the failure.
    /// 60 seconds by default.
    public var maximumRetryAfter: Duration

    /// Creates a policy; see the properties for the defaults.
    public init(
        maximumRetries: Int = 2, backoff: Backoff = Backoff(),
        retryableStatusCodes: Set<Int> = [408, 429, 500, 502, 503, 504],
        retryableTransportFamilies: Set<TransportFailure.Family> = [.timeout, .connectionLost, .cannotConnect],
        honorsRetryAfter: Bool = true, maximumRetryAfter: Duration = .seconds(60)
    ) {
        self.maximumRetries = maximumRetries
        self.backoff = backoff
        self.retryableStatusCodes = retryableStatusCodes
        self.retryableTransportFamilies = retryableTransportFamilies
        self.honorsRetryAfter = honorsRetryAfter
        self.maximumRetryAfter = maximumRetryAfter
    }

    /// Two retries with exponential backoff and jitter, honouring `Retry-After`.
    public static let `default` = RetryPolicy()

    /// No retries.
    public static let never = RetryPolicy(maximumRetries: 0)

    /// How long to wait before retry number `retry` (1 for the first) after `failure`, or `nil` not to retry.
    public func delay(beforeRetry retry: Int, after failure: RequestFailure) -> Duration? {
        guard retry <= maximumRetries, failure.context.allowsRetry else { return nil }
        switch failure.reason {
        case .transport(let transport) where retryableTransportFamilies.contains(transport.family):
            return backoff.delay(beforeRetry: retry)
        case .server(let server) where retryableStatusCodes.contains(server.statusCode):
            guard honorsRetryAfter,
                let header = server.response.value(forHTTPHeaderField: "Retry-After"),
                let requested = RetryAfter.delay(from: header)
            else { return backoff.delay(beforeRetry: retry) }
            return requested <= maximumRetryAfter ? requested : nil
        default:
            return nil
        }
    }
}
