import FaultlineReporting
import Foundation

/// A load generator: envelopes posted to an ingest through a Faultline transport with a fixed number in flight, each
/// as an SDK sends it (gzip body, `X-Sentry-Auth`), over reused connections.
public struct EnvelopeLoad {
    /// What one run measured.
    public struct Result: Sendable {
        public let seconds: Double
        public let accepted: Int
        public let refused: [Int: Int]
    }

    public let concurrency: Int
    public let transport: any EnvelopeTransport

    /// A load of `concurrency` requests in flight over `transport`, by default URLSession.
    public init(concurrency: Int, transport: (any EnvelopeTransport)? = nil) {
        self.concurrency = concurrency
        self.transport = transport ?? URLSessionEnvelopeTransport(maximumConnections: concurrency)
    }

    /// Posts every envelope of `bodies` (gzip-compressed unless `compressed` is false) to `dsn` and waits for every
    /// answer; a request that got none is refused with status 0.
    public func run(_ bodies: [Data], to dsn: DSN, compressed: Bool = true) async -> Result {
        var headerFields = [
            "Content-Type": "application/x-sentry-envelope",
            "X-Sentry-Auth": dsn.authHeader(client: "faultline-bench/1.0"),
        ]
        if compressed { headerFields["Content-Encoding"] = "gzip" }
        let transport = transport
        let start = ContinuousClock.now
        let statuses = await withTaskGroup(of: Int.self) { group in
            var next = 0
            var statuses: [Int] = []
            func send() {
                let request = EnvelopeRequest(
                    url: dsn.envelopeURL, headerFields: headerFields, body: bodies[next], timeout: .seconds(30))
                next += 1
                group.addTask { await transport.send(request)?.statusCode ?? 0 }
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
