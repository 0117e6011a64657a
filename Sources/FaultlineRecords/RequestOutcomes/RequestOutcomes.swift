import Faultline
import Foundation

/// How the requests of one interval ended, per route: how many there were and how each ended, the denominator of a
/// failure rate, and their durations, for percentiles. A reporter keeps one per interval and writes it to the log as
/// one line (``line()``); the CLI and `faultline serve` read it back (``init(line:)``).
///
/// ```json
/// {"type":"faultline.request_outcomes","id":"5b0c…","start":"2026-11-28T12:00:00.000Z",
///  "timestamp":"2026-11-28T12:01:00.000Z","release":"boleto@2.4.1","routes":[{"method":"GET","route":"/users/{id}",
///  "outcomes":{"decoding.2xx":5,"ok":95},"durations_us":[[4352,3],[4608,97]]}]}
/// ```
///
/// An outcome is `ok` for a response the client accepted, else the failure's kind (`transport`, `server`, `decoding`,
/// `session_expired`) and, when a response came, its status class: `server.5xx`. Cancellations are not outcomes.
/// Past ``routeLimit`` routes, requests are counted together in ``overflow``. The ``id`` tells an interval sent twice
/// (a retry whose answer was lost) from another: `faultline serve` stores it once.
package struct RequestOutcomes: Hashable, Sendable {
    /// A request's route: its method and route template.
    package struct Route: Hashable, Sendable, Comparable {
        package var method: String
        package var route: String

        package init(method: String, route: String) {
            self.method = method
            self.route = route
        }

        package static func < (lhs: Route, rhs: Route) -> Bool { (lhs.route, lhs.method) < (rhs.route, rhs.method) }
    }

    /// The requests of a route: how many ended each way, and how long they took.
    package struct Tally: Hashable, Sendable {
        /// Requests by outcome.
        package var outcomes: [String: Int] = [:]
        package var durations = LatencyHistogram()

        package init() {}

        /// The requests counted.
        package var requests: Int { outcomes.values.reduce(0, +) }
        /// The requests that failed.
        package var failures: Int { requests - (outcomes[RequestOutcomes.success] ?? 0) }

        mutating func record(_ outcome: String, duration: Duration) {
            outcomes[outcome, default: 0] += 1
            durations.record(duration)
        }

        /// Adds the counts of `other`.
        package mutating func merge(_ other: Tally) {
            outcomes.merge(other.outcomes, uniquingKeysWith: +)
            durations.merge(other.durations)
        }
    }

    /// The `type` of the line, and the type of the envelope item that carries it.
    package static let type = RecordKind.outcomes.itemType
    /// The outcome of a response the client accepted.
    package static let success = "ok"
    /// The most routes counted apart.
    package static let routeLimit = 200

    /// The interval's id, 32 lowercase hex digits as an event id.
    package var id: String
    /// When the interval started and ended.
    package var start: Date
    package var end: Date
    package var release: String?
    package var environment: String?
    package var routes: [Route: Tally] = [:]
    /// The requests of the routes past ``routeLimit``, counted together.
    package var overflow = Tally()

    package init(
        id: String = RandomID.make(), start: Date, end: Date? = nil, release: String? = nil, environment: String? = nil
    ) {
        self.id = id
        self.start = start
        self.end = end ?? start
        self.release = release
        self.environment = environment
    }

    /// Counts a request of `route` that ended as `outcome` after `duration`.
    package mutating func record(_ route: Route, outcome: String, duration: Duration) {
        if routes[route] != nil || routes.count < Self.routeLimit {
            routes[route, default: Tally()].record(outcome, duration: duration)
        } else {
            overflow.record(outcome, duration: duration)
        }
    }

    /// Counts as `outcome` a request of `route` counted as a success in this interval (a response that a later step,
    /// such as the OpenAPI runtime's decoding, found failed), its duration kept; when none is, counts a request of its
    /// own, without a duration.
    package mutating func reclassifySuccess(of route: Route, as outcome: String) {
        if let successes = routes[route]?.outcomes[Self.success], successes > 0 {
            routes[route]?.outcomes[Self.success] = successes > 1 ? successes - 1 : nil
            routes[route]?.outcomes[outcome, default: 0] += 1
        } else if routes[route] != nil || routes.count < Self.routeLimit {
            routes[route, default: Tally()].outcomes[outcome, default: 0] += 1
        } else {
            overflow.outcomes[outcome, default: 0] += 1
        }
    }

    /// The line of the log that holds it, without its newline: `type` first, so that ``isLine(_:)`` tells it from an
    /// event by its first bytes.
    package func line() -> Data {
        var writer = JSONWriter(capacity: 256 + routes.count * 256)
        writer.object { writer in
            writer.member("type", Self.type)
            writer.member("id", id)
            writer.member("start", RFC3339.string(from: start))
            writer.member("timestamp", RFC3339.string(from: end))
            writer.member("release", release)
            writer.member("environment", environment)
            writer.key("routes")
            writer.array(routes.keys.sorted()) { writer, route in
                writer.object { writer in
                    writer.member("method", route.method)
                    writer.member("route", route.route)
                    Self.write(routes[route]!, into: &writer)
                }
            }
            if !overflow.outcomes.isEmpty {
                writer.key("overflow")
                writer.object { Self.write(overflow, into: &$0) }
            }
        }
        return Data(writer.bytes)
    }

    private static func write(_ tally: Tally, into writer: inout JSONWriter) {
        writer.key("outcomes")
        writer.object(tally.outcomes) { $0.value(.int($1)) }
        writer.key("durations_us")
        writer.array(tally.durations.buckets) { writer, bucket in
            writer.value(.array([.int(Int(bucket.lowerBound)), .int(bucket.count)]))
        }
    }

    /// The first bytes of every line of request outcomes.
    package static let linePrefix = Array(#"{"type":"faultline.request_outcomes","#.utf8)

    /// Whether `line` is a line of request outcomes, by its first bytes.
    package static func isLine(_ line: some Collection<UInt8>) -> Bool { line.starts(with: linePrefix) }
}
