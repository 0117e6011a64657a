import FaultlineRecords
import Foundation

/// A reporter's delivery over one of its logs: the record layer's queue over the lines the log appended
/// (`DurableQueue+Log.swift`), counted by the Sentry data category of the log's kind.
typealias LogQueue = DurableQueue<LogSegments<DataCategory>>

extension DurableQueue where Segments == LogSegments<DataCategory> {
    /// Opens the delivery of `log`, of `kind` (``DurableQueue/init(category:log:cursorFile:indexLimit:)``).
    init(kind: RecordKind, log: EventLog.Configuration, cursorFile: URL, indexLimit: Int) throws {
        try self.init(category: kind.category, log: log, cursorFile: cursorFile, indexLimit: indexLimit)
    }
}
