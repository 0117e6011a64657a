import BenchmarkSupport
import Foundation

/// One run of wrk (Debian's `wrk` package) with `Benchmarks/peers/envelope.lua`: every connection sends envelopes
/// for a number of seconds, then waits for its last answer, so every request sent is answered when it ends.
struct WrkRun {
    /// What the script reports at the end of a run, and wrk's own counts.
    struct Result: Decodable, Sendable {
        struct Errors: Decodable, Sendable {
            let connect: Int
            let read: Int
            let write: Int
            let status: Int
            let timeout: Int
        }

        /// Requests sent, answered, and answered with each status.
        let sent: Int
        let answered: Int
        let statuses: [String: Int]
        /// From the first request sent to the last answer, measured by the script.
        let seconds: Double
        /// Latency percentiles from wrk's histogram, in microseconds.
        let p50Microseconds: Double
        let p90Microseconds: Double
        let p99Microseconds: Double
        let maxMicroseconds: Double
        let errors: Errors

        /// Requests answered 200.
        var answered200: Int { statuses["200"] ?? 0 }

        /// Answers other than 200, by status, such as `429: 12`.
        var otherAnswers: [String: Int] { statuses.filter { $0.key != "200" } }

        /// Requests answered 200 per second.
        var rate: Double { Double(answered200) / seconds }

        enum CodingKeys: String, CodingKey {
            case sent, answered, statuses, seconds, errors
            case p50Microseconds = "p50_us"
            case p90Microseconds = "p90_us"
            case p99Microseconds = "p99_us"
            case maxMicroseconds = "max_us"
        }
    }

    /// How wrk fails.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The script, beside the other peers.
    static let script = IngestPeer.repository.appendingPathComponent("Benchmarks/peers/envelope.lua")

    let threads: Int
    let connections: Int
    let seconds: Int

    /// Sends `template` (a file) to `path` on the server at `port` with `method`, authenticated with `auth`, each
    /// request with an event id that starts with `run` (16 hex digits).
    ///
    /// wrk itself stops at `seconds` plus a margin for the last answers; a request still unanswered then is counted
    /// sent and not answered.
    func run(
        template: URL, method: String = "POST", path: String, port: Int, auth: String, run: String
    ) throws -> Result {
        let margin = 5
        let arguments = [
            "wrk", "--threads", String(threads), "--connections", String(connections),
            "--duration", "\(seconds + margin)s", "--timeout", "\(margin)s", "--script", Self.script.path,
            "http://127.0.0.1:\(port)", "--", template.path, method, path, auth, String(seconds), run,
        ]
        let output = String(decoding: try ChildRun.run(arguments).output, as: UTF8.self)
        let prefix = "ingest-throughput: "
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix(prefix) }) else {
            throw Failure(description: "wrk printed no result line (\(prefix)…); it printed:\n\(output)")
        }
        return try JSONDecoder().decode(Result.self, from: Data(line.dropFirst(prefix.count).utf8))
    }
}
