import FaultlineRecords
import FaultlineReporting
import Foundation

/// A large `requests/` log for `faultline routes`: request outcomes as Faultline's reporters write them (one line per
/// device and minute, 4–12 routes each) and transactions as the official Python SDK sends them to `faultline serve`
/// (an `http.server` transaction with 1–6 `http.client` spans to identifier-bearing URLs and a `db` span, about 2 KB,
/// the trace's sample rate in its data), a tenth of the bytes outcomes, the rest transactions. The same seed makes the
/// same bytes.
public struct RequestsCorpus {
    /// What was written.
    public struct Written: Sendable {
        public let intervals: Int
        public let transactions: Int
        /// The `http.client` spans of the transactions.
        public let spans: Int
        public let bytes: Int
    }

    private var generator: SplitMix64
    private let routes = ["/users/{id}", "/users/{id}/orders", "/search", "/checkout", "/travels/{id}", "/profile"]
        .flatMap { route in ["GET", "POST"].map { RequestOutcomes.Route(method: $0, route: route) } }
    private let appReleases = ["boleto-ios@4.2.0+310", "boleto-ios@4.1.3+301", "boleto-android@4.2.0"]
    /// The releases of the Python services, with the sample rate of each.
    private let serviceReleases: [(release: String, rate: Double)] = [
        ("shop-py@1.8.0", 0.25), ("billing-py@3.1", 0.1), ("search-py@0.9", 1),
    ]
    private let hosts = ["api.example.com", "pay.example.com", "search.internal"]
    private let paths = [
        "/users/%d", "/users/%d/orders", "/v1/charges/%08x", "/items/%d", "/search", "/carts/%d/lines",
    ]

    public init(seed: UInt64) {
        generator = SplitMix64(seed: seed)
    }

    /// Writes `outcomes.jsonl` and `transactions.jsonl` of about `bytes` in all into `folder`, a `requests/` folder.
    public mutating func write(to folder: URL, bytes: Int) throws -> Written {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var intervals = 0
        var transactions = 0
        var spans = 0
        var written = 0
        let start = 1_795_000_000.0
        try Self.writeLines(to: folder.appendingPathComponent("outcomes.jsonl"), bytes: bytes / 10) { index in
            intervals += 1
            return outcomesLine(at: start + Double(index) * 0.5)
        } written: {
            written += $0
        }
        try Self.writeLines(to: folder.appendingPathComponent("transactions.jsonl"), bytes: bytes - bytes / 10) {
            index in
            transactions += 1
            let (line, lineSpans) = transactionLine(index, at: start + Double(index) * 0.05)
            spans += lineSpans
            return line
        } written: {
            written += $0
        }
        return Written(intervals: intervals, transactions: transactions, spans: spans, bytes: written)
    }

    /// Appends the lines `line` makes to `file` until it holds `bytes`, a megabyte at a time.
    private static func writeLines(
        to file: URL, bytes: Int, _ line: (Int) -> String, written: (Int) -> Void
    ) throws {
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        var buffer = Data()
        var total = 0
        var index = 0
        while total < bytes {
            buffer.append(contentsOf: line(index).utf8)
            buffer.append(0x0A)
            index += 1
            if buffer.count >= 1 << 20 || total + buffer.count >= bytes {
                try handle.write(contentsOf: buffer)
                total += buffer.count
                buffer.removeAll(keepingCapacity: true)
            }
        }
        written(total)
    }

    /// One device's minute of request outcomes.
    private mutating func outcomesLine(at time: Double) -> String {
        var outcomes = RequestOutcomes(
            id: String(format: "%016llx%016llx", generator.next(), generator.next()),
            start: Date(timeIntervalSince1970: time), end: Date(timeIntervalSince1970: time + 60),
            release: appReleases[Int(generator.next() % UInt64(appReleases.count))], environment: "production")
        for route in routes.prefix(4 + Int(generator.next() % 9)) {
            for _ in 0..<(1 + Int(generator.next() % 12)) {
                let roll = generator.next() % 100
                let outcome = roll < 90 ? RequestOutcomes.success : roll < 95 ? "decoding.2xx" : "server.5xx"
                outcomes.record(
                    route, outcome: outcome, duration: .microseconds(Int64(2_000 + generator.next() % 400_000)))
            }
        }
        return String(decoding: outcomes.line(), as: UTF8.self)
    }

    /// A transaction as sentry-python sends it, with its `http.client` spans counted.
    private mutating func transactionLine(_ index: Int, at time: Double) -> (String, Int) {
        let service = serviceReleases[Int(generator.next() % UInt64(serviceReleases.count))]
        let traceID = String(format: "%016llx%016llx", generator.next(), generator.next())
        let rootID = String(format: "%016llx", generator.next())
        let requests = 1 + Int(generator.next() % 6)
        var spans: [String] = []
        var offset = 0.002
        for _ in 0..<requests {
            let host = hosts[Int(generator.next() % UInt64(hosts.count))]
            let path = String(
                format: paths[Int(generator.next() % UInt64(paths.count))], Int(generator.next() % 90_000))
            let url = "https://\(host)\(path)"
            let status = generator.next() % 50 == 0 ? 503 : 200
            let duration = Double(1_000 + generator.next() % 300_000) / 1_000_000
            spans.append(
                #"{"data":{"http.fragment":"","http.method":"GET","http.query":"page=2","#
                    + #""http.response.status_code":\#(status),"thread.id":"140243685537600","#
                    + #""thread.name":"MainThread","url":"\#(url)"},"description":"GET \#(url)","op":"http.client","#
                    + #""origin":"auto.http.stdlib.httplib","parent_span_id":"\#(rootID)","#
                    + #""same_process_as_parent":true,"span_id":"\#(String(format: "%016llx", generator.next()))","#
                    + #""start_timestamp":"\#(RFC3339.string(seconds: time + offset, precision: .milliseconds))","#
                    + #""status":"\#(status == 200 ? "ok" : "internal_error")","#
                    + #""tags":{"http.status_code":"\#(status)"},"#
                    + #""timestamp":"\#(RFC3339.string(seconds: time + offset + duration, precision: .milliseconds))","#
                    + #""trace_id":"\#(traceID)"}"#)
            offset += duration + 0.001
        }
        spans.append(
            #"{"data":{"db.system":"postgresql","thread.id":"140243685537600"},"#
                + #""description":"SELECT carts.id, carts.user_id FROM carts WHERE carts.id = %s","op":"db","#
                + #""origin":"auto.db.sqlalchemy","parent_span_id":"\#(rootID)","same_process_as_parent":true,"#
                + #""span_id":"\#(String(format: "%016llx", generator.next()))","#
                + #""start_timestamp":"\#(RFC3339.string(seconds: time + offset, precision: .milliseconds))","#
                + #""status":"ok","timestamp":"\#(RFC3339.string(seconds: time + offset + 0.003, precision: .milliseconds))","#
                + #""trace_id":"\#(traceID)"}"#)
        let line =
            #"{"contexts":{"runtime":{"build":"3.11.7 (main, Dec  8 2023, 14:22:46) [GCC 12.2.0]","name":"CPython","#
            + #""version":"3.11.7"},"trace":{"data":{"sentry.sample_rate":\#(service.rate),"thread.id":"140243685537600","#
            + #""thread.name":"MainThread"},"op":"http.server","origin":"auto.http.django","#
            + #""parent_span_id":null,"span_id":"\#(rootID)","status":"ok","trace_id":"\#(traceID)","type":"trace"}},"#
            + #""environment":"production","event_id":"\#(String(format: "%032x", index))","extra":{"sys.argv":["#
            + #""manage.py","runserver"]},"modules":{"django":"5.0.1","sentry-sdk":"2.75.0","urllib3":"2.1.0"},"#
            + #""platform":"python","release":"\#(service.release)","#
            + #""sdk":{"name":"sentry.python.django","version":"2.75.0"},"server_name":"web-7f9c","#
            + #""spans":[\#(spans.joined(separator: ","))],"#
            + #""start_timestamp":"\#(RFC3339.string(seconds: time, precision: .milliseconds))","#
            + #""timestamp":"\#(RFC3339.string(seconds: time + offset + 0.004, precision: .milliseconds))","#
            + #""transaction":"/checkout/{cart_id}","transaction_info":{"source":"route"},"type":"transaction"}"#
        return (line, requests)
    }
}
