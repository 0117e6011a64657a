import Faultline
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Posts alerts to one webhook, each tried up to ``attempts`` times: again after a network error or a status worth
/// retrying (408, 429, 5xx), with the API client's ``Backoff`` (0.5 s, doubling, with jitter) or the receiver's
/// `Retry-After` (seconds or an HTTP date, up to a minute) between tries; a 2xx answer is a success, any other status
/// a failure at once.
struct WebhookPoster {
    let url: URL
    let attempts = 3
    let backoff = Backoff(initial: .milliseconds(500), multiplier: 2, maximum: .seconds(8), jitter: 0.5)
    /// The longest `Retry-After` honoured; a longer one waits this long.
    let maximumRetryAfter: Duration = .seconds(60)
    let session: URLSession

    init(url: URL) {
        self.url = url
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 10
        // Without a cache, a post cancelled as it starts is safe on Linux (see `APIClient.Configuration.session`).
        configuration.urlCache = nil
        session = URLSession(configuration: configuration)
    }

    /// Why a post failed, for the line that says so: a status or the transport's error.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Posts `body` with `headers`, retrying; throws the last failure.
    func post(_ body: Data, headers: [String: String]) async throws {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        var retry = 0
        while true {
            guard case .failed(let failure, let isRetryable, let requestedPause) = await attempt(request) else {
                return
            }
            retry += 1
            guard isRetryable, retry < attempts else { throw failure }
            try await Task.sleep(
                for: requestedPause.map { min($0, maximumRetryAfter) } ?? backoff.delay(beforeRetry: retry))
        }
    }

    /// What one try came to.
    private enum Attempt {
        case delivered
        /// Failed; worth another try or not, after the pause the receiver asked for, if it did.
        case failed(Failure, isRetryable: Bool, requestedPause: Duration?)
    }

    private func attempt(_ request: URLRequest) async -> Attempt {
        do {
            let (_, answer) = try await SessionTransfer.data(for: request, on: session)
            let response = answer as? HTTPURLResponse
            let status = response?.statusCode ?? 0
            if (200..<300).contains(status) { return .delivered }
            return .failed(
                Failure(description: "HTTP \(status)"),
                isRetryable: status == 408 || status == 429 || (500..<600).contains(status),
                requestedPause: response?.value(forHTTPHeaderField: "Retry-After").flatMap {
                    RetryAfter.delay(from: $0)
                })
        } catch {
            return .failed(Failure(description: error.localizedDescription), isRetryable: true, requestedPause: nil)
        }
    }
}
