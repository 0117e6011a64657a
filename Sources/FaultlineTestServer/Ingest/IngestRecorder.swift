import Foundation

/// What a ``RecordingIngest`` received, and how it answers: scripted replies first, then a standing one.
///
/// One recorder can serve several runs of the ingest, so a test can stop the server (an outage) and start it again
/// on the same port with the same record.
package actor IngestRecorder {
    /// How the ingest answers a request.
    package struct Reply: Sendable, Hashable {
        package var status: Int
        /// Header fields such as `Retry-After` or `X-Sentry-Rate-Limits`.
        package var headers: [String: String]
        /// How long the endpoint holds the request before answering: a hung endpoint.
        package var delay: Duration

        package init(status: Int, headers: [String: String] = [:], delay: Duration = .zero) {
            self.status = status
            self.headers = headers
            self.delay = delay
        }

        /// `200 OK`.
        package static let accepted = Reply(status: 200)
    }

    /// One request as it arrived.
    package struct ReceivedRequest: Sendable {
        /// The request's path, such as `/api/1/envelope/`.
        package let path: String
        /// Header fields, names lowercased.
        package let headers: [String: String]
        /// The body as sent (still compressed when it was).
        package let body: Data
        /// When it arrived.
        package let receivedAt: ContinuousClock.Instant
        /// The status it was answered with.
        package let status: Int
    }

    private let keepsBodies: Bool
    private var script: [Reply] = []
    private var standingReply = Reply.accepted
    private var received: [ReceivedRequest] = []
    private var count = 0

    /// Creates a recorder that answers `200` until told otherwise.
    ///
    /// - Parameter keepsBodies: Whether request bodies are kept; benchmarks that send many turn it off.
    package init(keepsBodies: Bool = true) {
        self.keepsBodies = keepsBodies
    }

    /// The requests received so far, in arrival order.
    package var requests: [ReceivedRequest] { received }

    /// How many requests arrived.
    package var requestCount: Int { count }

    /// Answers the next requests with `replies`, one each, before the standing reply.
    package func answerNext(_ replies: [Reply]) {
        script.append(contentsOf: replies)
    }

    /// Answers every request after the scripted ones with `reply`.
    package func answerAll(_ reply: Reply) {
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
