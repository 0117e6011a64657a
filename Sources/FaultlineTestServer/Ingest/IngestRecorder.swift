import Foundation

/// What a ``RecordingIngest`` received, and how it answers: scripted replies first, then a standing one.
///
/// One recorder can serve several runs of the ingest, so a test can stop the server (an outage) and start it again
/// on the same port with the same record.
public actor IngestRecorder {
    /// How the ingest answers a request.
    public struct Reply: Sendable, Hashable {
        public var status: Int
        /// Header fields such as `Retry-After` or `X-Sentry-Rate-Limits`.
        public var headers: [String: String]
        /// How long the endpoint holds the request before answering: a hung endpoint.
        public var delay: Duration

        public init(status: Int, headers: [String: String] = [:], delay: Duration = .zero) {
            self.status = status
            self.headers = headers
            self.delay = delay
        }

        /// `200 OK`.
        public static let accepted = Reply(status: 200)
    }

    /// One request as it arrived.
    public struct ReceivedRequest: Sendable {
        /// The request's path, such as `/api/1/envelope/`.
        public let path: String
        /// Header fields, names lowercased.
        public let headers: [String: String]
        /// The body as sent (still compressed when it was).
        public let body: Data
        /// When it arrived.
        public let receivedAt: ContinuousClock.Instant
        /// The status it was answered with.
        public let status: Int
    }

    private let keepsBodies: Bool
    private var script: [Reply] = []
    private var standingReply = Reply.accepted
    private var received: [ReceivedRequest] = []
    private var count = 0

    /// Creates a recorder that answers `200` until told otherwise.
    ///
    /// - Parameter keepsBodies: Whether request bodies are kept; benchmarks that send many turn it off.
    public init(keepsBodies: Bool = true) {
        self.keepsBodies = keepsBodies
    }

    /// The requests received so far, in arrival order.
    public var requests: [ReceivedRequest] { received }

    /// How many requests arrived.
    public var requestCount: Int { count }

    /// Answers the next requests with `replies`, one each, before the standing reply.
    public func answerNext(_ replies: [Reply]) {
        script.append(contentsOf: replies)
    }

    /// Answers every request after the scripted ones with `reply`.
    public func answerAll(_ reply: Reply) {
        standingReply = reply
    }

    /// Records a request and returns the reply it gets.
    func record(path: String, headers: [String: String], body: Data) -> Reply {
        let reply = script.isEmpty ? standingReply : script.removeFirst()
        count += 1
        received.append(
            ReceivedRequest(
                path: path, headers: headers, body: keepsBodies ? body : Data(), receivedAt: .now,
                status: reply.status))
        return reply
    }
}
