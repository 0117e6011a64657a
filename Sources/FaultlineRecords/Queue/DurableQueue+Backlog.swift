import Foundation

/// The waiting lines past the index's limit: counted by segment as the log writes them, indexed from the log as the
/// index drains, dropped by segment when the log evicts them.
extension DurableQueue {
    /// Takes the lines of the segments `numbers` from `cursor` on as waiting, but those it says are done, what a run
    /// left to send, reading each file once, as a stream: indexed up to the limit, counted by segment past it.
    mutating func readWaitingLines<C>(from cursor: DeliveryCursor, segments numbers: [Int])
    where Segments == LogSegments<C> {
        let reader = segments.reader
        let start = cursor.position
        let done = Set(cursor.done ?? [])
        for segment in numbers where segment >= start.segment {
            let offset = segment == start.segment ? start.offset : 0
            try? reader.forEachLine(of: segment, from: offset, isActive: segment == segments.activeSegment) {
                position, bytes in
                guard !done.contains(position) else { return true }
                if segments.unindexedFrom == nil, count < segments.indexLimit {
                    index(bytes, at: position)
                } else {
                    if segments.unindexedFrom == nil { segments.unindexedFrom = position }
                    segments.unindexedLines[segment, default: 0] += 1
                    segments.unindexedCount += 1
                }
                return true
            }
        }
    }

    /// Indexes waiting lines from the log, oldest first, until the index is full or every waiting line is indexed;
    /// lines that are not an object are skipped and counted.
    mutating func indexBacklog<C>() where Segments == LogSegments<C> {
        let reader = segments.reader
        while let from = segments.unindexedFrom, count < segments.indexLimit {
            guard let counted = segments.unindexedLines[from.segment], counted > 0 else {
                advanceBacklog(past: from.segment)
                continue
            }
            var taken = 0
            var indexFullAt: LogPosition?
            try? reader.forEachLine(
                of: from.segment, from: from.offset, isActive: from.segment == segments.activeSegment
            ) {
                position, bytes in
                guard taken < counted else { return false }
                guard count < segments.indexLimit else {
                    indexFullAt = position
                    return false
                }
                taken += 1
                segments.unindexedLines[from.segment] = counted - taken
                segments.unindexedCount -= 1
                index(bytes, at: position)
                return true
            }
            if let indexFullAt {
                segments.unindexedFrom = indexFullAt
                return
            }
            // Lines counted but no longer in the file (a segment that cannot be read) cannot be sent.
            if taken < counted {
                segments.unindexedCount -= counted - taken
                segments.skippedLines += counted - taken
            }
            segments.unindexedLines[from.segment] = 0
            advanceBacklog(past: from.segment)
        }
    }

    /// Indexes a waiting line read from the log when it is an object on a line; a line `faultline forget` blanked is
    /// passed over, and any other cannot be sent and is counted as skipped.
    private mutating func index<C>(_ bytes: Data, at position: LogPosition) where Segments == LogSegments<C> {
        if bytes.first == UInt8(ascii: " ") { return }
        guard bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}") else {
            segments.skippedLines += 1
            return
        }
        append(at: position, length: bytes.count, category: segments.category, bytes: Data(bytes))
    }

    /// Drops the waiting lines not indexed of the segments the log evicted; returns how many.
    mutating func dropEvictedBacklog<C>() -> Int where Segments == LogSegments<C> {
        var dropped = 0
        for (segment, count) in segments.unindexedLines where segment < firstKeptSegment {
            dropped += count
            segments.unindexedLines[segment] = nil
        }
        segments.unindexedCount -= dropped
        if let from = segments.unindexedFrom, from.segment < firstKeptSegment { advanceBacklog(past: from.segment) }
        return dropped
    }

    /// Moves the backlog's start to the next segment that has waiting lines not indexed, or ends it.
    private mutating func advanceBacklog<C>(past segment: Int) where Segments == LogSegments<C> {
        segments.unindexedLines[segment] = nil
        if let next = segments.unindexedLines.filter({ $0.value > 0 }).keys.min() {
            segments.unindexedFrom = LogPosition(segment: max(next, firstKeptSegment), offset: 0)
        } else {
            segments.unindexedFrom = nil
            segments.unindexedLines.removeAll()
        }
    }
}
