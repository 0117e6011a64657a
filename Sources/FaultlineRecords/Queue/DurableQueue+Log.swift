import Foundation

/// A reporter's delivery over one of its logs (``RecordKind``): the lines the log appended, from the stored cursor on,
/// each counted by the log's category.
extension DurableQueue {
    /// Opens the delivery of `log`, whose lines are counted by `category`, whose cursor is kept in `cursorFile`: the lines from the
    /// stored cursor to the end of the log wait, but those it says are done. With no cursor stored, delivery starts at
    /// the end of the log: an app that gets a DSN does not send the history it logged before. Call it after the log was
    /// opened (which cuts off a line a crash cut short) and before lines are appended.
    ///
    /// A rotated file that cannot be read (corrupt gzip) is skipped: its lines cannot be sent, and `faultline stats`
    /// names the file. Lines that are not an object are skipped, counted in ``takeSkippedLines()``.
    package init<C>(
        category: C, log: EventLog.Configuration, cursorFile: URL, indexLimit: Int
    ) throws where Segments == LogSegments<C> {
        let (rotated, activeSegment) = try EventLog.segments(of: log)
        let activeSize = (try? EventLog.size(of: log.activeFile)) ?? 0
        let cursor = try DeliveryCursor.stored(in: cursorFile)
        self.init(
            segments: LogSegments(
                category: category, log: log, end: LogPosition(segment: activeSegment, offset: activeSize),
                indexLimit: indexLimit),
            cursorFile: cursorFile, storedCursor: cursor, cacheBudget: LogSegments<C>.cacheBudget,
            firstKeptSegment: rotated.min() ?? activeSegment)
        guard let cursor else {
            try storeCursor()
            return
        }
        readWaitingLines(from: cursor, segments: rotated + [activeSegment])
    }

    /// The lines found since the last call that cannot be sent, for the uploader to count.
    package mutating func takeSkippedLines<C>() -> Int where Segments == LogSegments<C> {
        defer { segments.skippedLines = 0 }
        return segments.skippedLines
    }

    /// Adds the line the log wrote at `position`, whose event has the id `eventID` when the caller knows it, and a
    /// transaction's `trace` header (a JSON object): indexed, or only counted when the index is full (a transaction's
    /// header is then rebuilt from its line when it is sent).
    package mutating func append<C>(
        _ line: Data, at position: LogPosition, eventID: String?, trace: Data? = nil
    ) where Segments == LogSegments<C> {
        segments.advance(to: LogPosition(segment: position.segment, offset: position.offset + line.count + 1))
        guard segments.unindexedFrom == nil, count < segments.indexLimit else {
            if segments.unindexedFrom == nil { segments.unindexedFrom = position }
            segments.unindexedLines[position.segment, default: 0] += 1
            segments.unindexedCount += 1
            return
        }
        if let trace { segments.keep(trace: trace, at: position) }
        append(at: position, length: line.count, category: segments.category, eventID: eventID, bytes: line)
    }

    /// Notes that the log is at `position` after lines the queue does not send (a record a rate limit refused).
    package mutating func skip<C>(to position: LogPosition) where Segments == LogSegments<C> {
        segments.advance(to: position)
    }

    /// The trace header kept for the transaction `entry` stands for, from this run; `nil` after a restart.
    package func trace<C>(of entry: QueueEntry<C>) -> Data? where Segments == LogSegments<C> {
        segments.traces[record(entry).position]
    }

    /// Drops the waiting lines of `evicted`, segments whose files the log evicted (the oldest, always), even those
    /// still in memory: what is sent is what the log holds, so a restart never finds a cursor into a deleted file.
    /// Lines being sent are dropped if their send fails. Returns how many were dropped.
    package mutating func evict<C>(_ evicted: [Int]) -> Int where Segments == LogSegments<C> {
        guard let newest = evicted.max() else { return 0 }
        return evict(before: newest + 1).count + dropEvictedBacklog()
    }
}
