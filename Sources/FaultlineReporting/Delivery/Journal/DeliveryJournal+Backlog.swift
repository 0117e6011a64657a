import Foundation

/// The waiting lines past the index's limit: counted by segment as the log writes them, indexed from the log as the
/// index drains, dropped by segment when the log evicts them.
extension DeliveryJournal {
    /// Takes the lines of `segments` from `cursor` on as waiting, but those it says are done, what a run left to
    /// send, reading each file once, as a stream: indexed up to the limit, counted by segment past it.
    mutating func readWaitingLines(from cursor: DeliveryCursor, segments: [Int]) {
        let reader = reader
        let start = cursor.position
        let done = Set(cursor.done ?? [])
        for segment in segments where segment >= start.segment {
            let offset = segment == start.segment ? start.offset : 0
            try? reader.forEachLine(of: segment, from: offset, isActive: segment == activeSegment) { position, bytes in
                guard !done.contains(position) else { return true }
                if unindexedFrom == nil, queue.count < Self.indexLimit {
                    index(bytes, at: position)
                } else {
                    if unindexedFrom == nil { unindexedFrom = position }
                    unindexedLines[segment, default: 0] += 1
                    unindexedCount += 1
                }
                return true
            }
        }
    }

    /// Indexes waiting lines from the log, oldest first, until the index is full or every waiting line is indexed;
    /// lines that are not an object are skipped and counted.
    mutating func indexBacklog() {
        let reader = reader
        while let from = unindexedFrom, queue.count < Self.indexLimit {
            guard let count = unindexedLines[from.segment], count > 0 else {
                advanceBacklog(past: from.segment)
                continue
            }
            var taken = 0
            var indexFullAt: LogPosition?
            try? reader.forEachLine(of: from.segment, from: from.offset, isActive: from.segment == activeSegment) {
                position, bytes in
                guard taken < count else { return false }
                guard queue.count < Self.indexLimit else {
                    indexFullAt = position
                    return false
                }
                taken += 1
                unindexedLines[from.segment] = count - taken
                unindexedCount -= 1
                index(bytes, at: position)
                return true
            }
            if let indexFullAt {
                unindexedFrom = indexFullAt
                return
            }
            // Lines counted but no longer in the file (a segment that cannot be read) cannot be sent.
            if taken < count {
                unindexedCount -= count - taken
                skippedLines += count - taken
            }
            unindexedLines[from.segment] = 0
            advanceBacklog(past: from.segment)
        }
    }

    /// Indexes a waiting line read from the log when it is an object on a line; otherwise it cannot be sent, and is
    /// counted as skipped.
    private mutating func index(_ bytes: Data, at position: LogPosition) {
        guard bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}") else {
            skippedLines += 1
            return
        }
        queue.append(at: position, length: bytes.count, category: .error, bytes: Data(bytes))
    }

    /// Drops the waiting lines not indexed of the segments the log evicted; returns how many.
    mutating func dropEvictedBacklog() -> Int {
        var dropped = 0
        for (segment, count) in unindexedLines where segment < queue.firstKeptSegment {
            dropped += count
            unindexedLines[segment] = nil
        }
        unindexedCount -= dropped
        if let from = unindexedFrom, from.segment < queue.firstKeptSegment { advanceBacklog(past: from.segment) }
        return dropped
    }

    /// Moves the backlog's start to the next segment that has waiting lines not indexed, or ends it.
    private mutating func advanceBacklog(past segment: Int) {
        unindexedLines[segment] = nil
        if let next = unindexedLines.filter({ $0.value > 0 }).keys.min() {
            unindexedFrom = LogPosition(segment: max(next, queue.firstKeptSegment), offset: 0)
        } else {
            unindexedFrom = nil
            unindexedLines.removeAll()
        }
    }
}
