import Foundation

/// A parser of untrusted input, driven by a fuzzer (`scripts/fuzz`) or by the committed corpus (`FuzzCorpusTests`):
/// it must not crash on any bytes, and where two implementations read the same input, or a result has a contract,
/// the target checks it and throws a ``Disagreement``.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// `Envelope(parsing:)`: what it reads is written back and read again to the same bytes.
    case envelope
    /// `JSONValue(parsing:)` against the one-pass readers, `JSONValue.members` and `JSONValue.object`; what it reads
    /// written compactly and read back to the same bytes.
    case json
    /// The triage scanner (`EventRecord(line:)`) against the ingest's one-pass read of the same line; an event read
    /// in full (`SentryEvent(line:)`) written and read back to the same bytes.
    case eventLine = "event-line"
    /// Value scrubbing over JSON bytes against scrubbing the parsed tree, and the ingest's one-pass scrubbing.
    case scrubbing
    /// RFC 3339 reading and writing, against Foundation's writer.
    case rfc3339
    /// gzip inflation within its size limit, and deflate then inflate back.
    case gzip
    /// DSN parsing, and what a parsed DSN writes read back the same.
    case dsn
    /// Event text made safe for a terminal, measured and cut to a width.
    case terminalText = "terminal-text"
    /// Server error bodies read by the error contracts the client tries by default.
    case errorBody = "error-body"
    /// The URL scrubber against `URLComponents`.
    case url
    /// The `sentry_key` of an auth header and of a query string, read back from what is written with it.
    case auth
    /// brotli inflation within its exact size limit.
    case brotli
    /// Requests to the ingest: each event accepted is one log line triage reads, as the metrics counted it.
    case ingest
    /// A `--where` condition against its `!=`, and messages normalised for grouping: no number left standing alone.
    case query
    /// `faultline forget`: a log file, plain or gzip, with its selected lines blanked and nothing else changed; a
    /// user found by each of their identities however the line escapes them.
    case erasure
    /// Request outcomes from a client's envelope item or a log line: read, written and read back to the same counts.
    case requestOutcomes = "request-outcomes"
    /// The trace headers a server continues: read, written and read back to the same span and sampling context.
    case traceHeaders = "trace-headers"
    /// Any SDK's transaction as `faultline routes` reads it: in its contract, and written back to the same requests.
    case transactionRecord = "transaction-record"

    /// Runs the target on `data`.
    ///
    /// - Throws: ``Disagreement`` when two readers of `data` disagree or a result breaks its contract.
    public func run(_ data: Data) throws(Disagreement) {
        switch self {
        case .envelope: try EnvelopeFuzzing.run(data)
        case .json: try JSONFuzzing.run(data)
        case .eventLine: try EventLineFuzzing.run(data)
        case .scrubbing: try ScrubbingFuzzing.run(data)
        case .rfc3339: try RFC3339Fuzzing.run(data)
        case .gzip: try GzipFuzzing.run(data)
        case .dsn: try DSNFuzzing.run(data)
        case .terminalText: try TerminalTextFuzzing.run(data)
        case .errorBody: try ErrorBodyFuzzing.run(data)
        case .url: try URLFuzzing.run(data)
        case .auth: try AuthFuzzing.run(data)
        case .brotli: try BrotliFuzzing.run(data)
        case .ingest: try IngestFuzzing.run(data)
        case .query: try QueryFuzzing.run(data)
        case .erasure: try ErasureFuzzing.run(data)
        case .requestOutcomes: try RequestOutcomesFuzzing.run(data)
        case .traceHeaders: try TraceHeadersFuzzing.run(data)
        case .transactionRecord: try TransactionRecordFuzzing.run(data)
        }
    }
}

/// What a fuzz target found wrong without a crash: two readers that disagree on the same input, or a result outside
/// its contract.
public struct Disagreement: Error, CustomStringConvertible {
    public let description: String

    /// Throws a disagreement saying `what` unless `condition` holds.
    static func check(_ condition: Bool, _ what: @autoclosure () -> String) throws(Disagreement) {
        guard condition else { throw Disagreement(description: what()) }
    }
}
