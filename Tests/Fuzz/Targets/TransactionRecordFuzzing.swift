import FaultlineLogReading
import FaultlineRecords
import Foundation

/// A transaction as `faultline routes` reads it from the transactions' log, which holds what any SDK sent through
/// `faultline serve` (``TransactionRecord``): what is read stays in its contract (a time in range, a sample rate in
/// (0, 1], requests with a method, a route and a duration not below zero), and written back as a transaction of its
/// requests, as Faultline's reporter writes one, it reads again to the same release, environment, end, sample rate and
/// requests (durations to the microsecond, and to the precision of a time that far from 1970).
enum TransactionRecordFuzzing {
    static func run(_ data: Data) throws(Disagreement) {
        let bytes = [UInt8](data)
        guard let read = bytes.withUnsafeBufferPointer({ TransactionRecord(line: $0) }) else { return }
        try Disagreement.check(RFC3339.range.contains(read.end), "its end \(read.end) is out of range")
        try Disagreement.check(
            read.sampleRate.map { $0 > 0 && $0 <= 1 } ?? true,
            "its sample rate \(read.sampleRate ?? 0) is not in (0, 1]")
        for request in read.requests {
            try Disagreement.check(
                !request.method.isEmpty && request.duration >= .zero,
                "a request without a method or a duration: \(request)")
        }
        let line = written(read)
        guard let again = line.withUnsafeBufferPointer({ TransactionRecord(line: $0) }) else {
            throw Disagreement(
                description: "what it wrote cannot be read back: \(String(decoding: line, as: UTF8.self))")
        }
        try Disagreement.check(
            again.release == read.release && again.environment == read.environment && again.end == read.end
                && again.sampleRate == read.sampleRate,
            "what it wrote reads back with another release, environment, end or sample rate")
        try Disagreement.check(
            again.requests.map { [$0.method, $0.route, $0.outcome] }
                == read.requests.map { [$0.method, $0.route, $0.outcome] },
            "what it wrote reads back with other requests: \(again.requests) for \(read.requests)")
        for (first, second) in zip(read.requests, again.requests) {
            // A span's duration is its end less its start, each a time in seconds: as precise as the last bit of the
            // larger of the two.
            let span = interval(of: first.duration)
            let tolerance = Duration.microseconds(1 + 4 * max(abs(span.start), abs(span.end)).ulp * 1_000_000)
            try Disagreement.check(
                (.zero - tolerance...tolerance).contains(first.duration - second.duration),
                "a duration of \(first.duration) reads back as \(second.duration)")
        }
    }

    /// The start and end, in seconds since 1970 and in range, of a span that lasted `duration`: from 1970, or from
    /// the earliest time for a span longer than the years since 1970 the range has.
    private static func interval(of duration: Duration) -> (start: Double, end: Double) {
        let seconds = duration / .seconds(1)
        let start = seconds <= RFC3339.range.upperBound ? 0 : RFC3339.range.lowerBound
        return (start, min(start + seconds, RFC3339.range.upperBound))
    }

    /// `record` as a transaction of its requests: each an `http.client` span whose data names its method, route and
    /// outcome, as long as the request took (``interval(of:)``).
    private static func written(_ record: TransactionRecord) -> [UInt8] {
        var trace: [String: JSONValue] = ["op": "http.server"]
        if let rate = record.sampleRate { trace["data"] = .object(["sentry.sample_rate": .double(rate)]) }
        let spans: [JSONValue] = record.requests.map { request in
            let span = interval(of: request.duration)
            return .object([
                "op": "http.client", "start_timestamp": .double(span.start), "timestamp": .double(span.end),
                "data": .object([
                    "http.request.method": .string(request.method), "http.route": .string(request.route),
                    "faultline.outcome": .string(request.outcome),
                ]),
            ])
        }
        var transaction: [String: JSONValue] = [
            "type": "transaction", "timestamp": .double(record.end), "start_timestamp": .double(record.end),
            "contexts": .object(["trace": .object(trace)]), "spans": .array(spans),
        ]
        if let release = record.release { transaction["release"] = .string(release) }
        if let environment = record.environment { transaction["environment"] = .string(environment) }
        return (try? [UInt8](JSONEncoder().encode(JSONValue.object(transaction)))) ?? []
    }
}
