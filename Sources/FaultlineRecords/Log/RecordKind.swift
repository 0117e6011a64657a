import Foundation

/// What a log holds, one record per line: each kind has a log of its own in the log directory (``LogLayout``), and a
/// reporter's uploader delivers each from its log, from a cursor of its own, as envelope items of the kind's type.
package enum RecordKind: String, Hashable, Sendable, CaseIterable {
    /// Sentry events, one per line: `events.jsonl`, in the log directory itself.
    case events
    /// Transactions with their spans, one per line: `requests/transactions.jsonl`. A request's is about a kilobyte,
    /// so 16 MiB keep the last fifteen thousand or so.
    case transactions
    /// One line of request outcomes per interval: `requests/outcomes.jsonl`. A line a minute of a busy app's few dozen
    /// routes is a few kilobytes, so 8 MiB keep weeks.
    case outcomes

    /// The name of its files without extension: `outcomes.jsonl`, `outcomes-….jsonl.gz`.
    package var fileName: String { rawValue }

    /// The folder of its log in `layout`.
    package func directory(in layout: LogLayout) -> URL {
        self == .events ? layout.url : layout.requests
    }

    /// The envelope item type its lines are sent as.
    package var itemType: String {
        switch self {
        case .events: "event"
        case .transactions: "transaction"
        case .outcomes: "faultline.request_outcomes"
        }
    }

    /// The configuration of its log in `layout`: the kind's folder and file name and, for a request log, its sizes
    /// (transactions: 2 MiB files, 16 MiB in all; outcomes: 1 MiB and 8 MiB). An event log's sizes are the reporter's
    /// options: here they keep ``EventLog/Configuration``'s defaults.
    package func logConfiguration(
        in layout: LogLayout, compressionLevel: Int32 = 6, maximumAge: Duration?
    ) -> EventLog.Configuration {
        var configuration = EventLog.Configuration(
            directory: directory(in: layout), fileName: fileName, compressionLevel: compressionLevel,
            maximumAge: maximumAge)
        switch self {
        case .events: break
        case .transactions:
            configuration.maximumFileSize = 2 * 1024 * 1024
            configuration.maximumTotalSize = 16 * 1024 * 1024
        case .outcomes:
            configuration.maximumFileSize = 1024 * 1024
            configuration.maximumTotalSize = 8 * 1024 * 1024
        }
        return configuration
    }
}
