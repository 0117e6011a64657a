import FaultlineReporting
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A load generator: envelopes posted to an ingest with a fixed number in flight, each as an SDK sends it (gzip
/// body, `X-Sentry-Auth`), over reused connections.
public struct EnvelopeLoad {
    /// What one run measured.
    public struct Result: Sendable {
        public let seconds: Double
        public let accepted: Int
        public let refused: [Int: Int]
    }

    public let concurrency: Int

    public init(concurrency: Int) {
        self.concurrency = concurrency
    }

    /// Posts every envelope of `bodies` (gzip-compressed) to `dsn` and waits for every answer.
    public func run(_ bodies: [Data], to dsn: DSN) async -> Result {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = concurrency
        // As the uploader's session: FoundationNetworking looks in its disk cache for every request unless there is
        // none, which would make this floor slower than the sender it stands under.
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.urlCredentialStorage = nil
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: dsn.envelopeURL)
        request.httpMethod = "POST"
        request.setValue("application/x-sentry-envelope", forHTTPHeaderField: "Content-Type")
        request.setValue("gzip", forHTTPHeaderField: "Content-Encoding")
        request.setValue(dsn.authHeader(client: "faultline-bench/1.0"), forHTTPHeaderField: "X-Sentry-Auth")
        let template = request
        let start = ContinuousClock.now
        let statuses = await withTaskGroup(of: Int.self) { group in
            var next = 0
            var statuses: [Int] = []
            func send() {
                var request = template
                request.httpBody = bodies[next]
                next += 1
                group.addTask {
                    let response = try? await session.data(for: request).1
                    return (response as? HTTPURLResponse)?.statusCode ?? 0
                }
            }
            while next < min(concurrency, bodies.count) { send() }
            for await status in group {
                statuses.append(status)
                if next < bodies.count { send() }
            }
            return statuses
        }
        let seconds = (ContinuousClock.now - start).seconds
        let refused = Dictionary(grouping: statuses.filter { $0 != 200 }, by: { $0 }).mapValues(\.count)
        return Result(seconds: seconds, accepted: statuses.filter { $0 == 200 }.count, refused: refused)
    }
}
