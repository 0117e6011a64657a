import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Posts alerts to one webhook, each tried up to ``attempts`` times with a doubling pause between tries (or the
/// receiver's `Retry-After`, up to a minute); a 2xx answer is a success.
struct WebhookPoster {
    let url: URL
    let attempts = 3
    /// The pause before the second try; doubled before each later one.
    let firstPause: Duration = .milliseconds(500)
    let session: URLSession

    init(url: URL) {
        self.url = url
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 10
        session = URLSession(configuration: configuration)
    }

    /// Why a post failed, for the line that says so: a status or the transport's error.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Posts `body` with `headers`, retrying; throws the last failure.
    func post(_ body: Data, headers: [String: String]) async throws {
        var pause = firstPause
        var failure = Failure(description: "not sent")
        for attempt in 1...attempts {
            var request = URLRequest(url: url)
            request.httpMethod = "POST"
            request.httpBody = body
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
            do {
                let (_, response) = try await session.data(for: request)
                let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                if (200..<300).contains(status) { return }
                failure = Failure(description: "HTTP \(status)")
                if let retryAfter = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Retry-After"),
                    let seconds = Int(retryAfter), seconds > 0
                {
                    pause = .seconds(min(seconds, 60))
                }
            } catch {
                failure = Failure(description: error.localizedDescription)
            }
            guard attempt < attempts else { break }
            try await Task.sleep(for: pause)
            pause *= 2
        }
        throw failure
    }
}
