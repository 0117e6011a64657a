import Foundation

/// Where a reporter or `faultline serve` keeps what it records of requests beside events: request outcomes and
/// transactions, each in a log of its own in the log directory's `requests/` folder, rotated, compressed and aged like
/// the event log, so that the event log stays one Sentry event per line; and, with an uploader, sent through its outbox,
/// each line as an envelope item of the log's type.
package struct RequestLog: Sendable {
    /// What a log holds.
    package enum Kind: Sendable {
        /// One ``RequestOutcomes`` line per interval: `outcomes.jsonl`. A line a minute of a busy app's few dozen routes
        /// is a few kilobytes, so 8 MiB keep weeks.
        case outcomes
        /// One transaction per line, with its spans: `transactions.jsonl`. A request's is about a kilobyte, so 16 MiB
        /// keep the last fifteen thousand or so.
        case transactions

        /// The name of its files without extension: `outcomes.jsonl`, `outcomes-….jsonl.gz`.
        package var fileName: String {
            switch self {
            case .outcomes: "outcomes"
            case .transactions: "transactions"
            }
        }

        /// The envelope item type its lines are sent as.
        package var itemType: String {
            switch self {
            case .outcomes: RequestOutcomes.type
            case .transactions: "transaction"
            }
        }

        /// Its active file's size at rotation.
        var maximumFileSize: Int {
            switch self {
            case .outcomes: 1024 * 1024
            case .transactions: 2 * 1024 * 1024
            }
        }

        /// Its size on disk at most.
        var maximumTotalSize: Int {
            switch self {
            case .outcomes: 8 * 1024 * 1024
            case .transactions: 16 * 1024 * 1024
            }
        }
    }

    package let kind: Kind
    private let log: EventLog
    private let uploader: Uploader?

    /// Opens the log of `kind` in `layout`'s ``LogLayout/requests`` folder, creating it when missing.
    package init(
        _ kind: Kind, in layout: LogLayout, compressionLevel: Int32 = 6, maximumAge: Duration?,
        uploader: Uploader? = nil, now: @escaping @Sendable () -> Date = { Date() }
    ) throws(EventLogError) {
        let configuration = EventLog.Configuration(
            directory: layout.requests, fileName: kind.fileName, maximumFileSize: kind.maximumFileSize,
            maximumTotalSize: kind.maximumTotalSize, compressionLevel: compressionLevel, maximumAge: maximumAge)
        log = try EventLog(configuration: configuration, now: now)
        self.kind = kind
        self.uploader = uploader
    }

    /// The file lines are appended to.
    package var activeFile: URL { log.configuration.activeFile }

    /// Appends `line` to the log and hands it to the uploader, in an envelope with `header`.
    package func write(_ line: Data, header: [String: JSONValue] = [:]) async throws(EventLogError) {
        _ = try await log.appendLine(line)
        await uploader?.enqueue(Envelope(header: header, items: [Envelope.Item(type: kind.itemType, payload: line)]))
    }

    /// Removes the files past the maximum age.
    package func expire() async throws(EventLogError) {
        _ = try await log.expire()
    }

    package func close() async throws(EventLogError) {
        try await log.close()
    }
}
