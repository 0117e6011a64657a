import Foundation

/// The waiting lines past the index's limit: counted by segment as the log writes them, indexed from the log as the
/// index drains, dropped by segment when the log evicts them.
extension DeliveryJournal {
    /// Takes the lines of `segments` from `start` on as waiting, what a run left to send, reading each file once, as a
    /// stream: indexed up to the limit, counted by segment past it.
    mutating func readWaitingLines(from start: LogPosition, segments: [Int]) {
        let reader = reader
        for segment in segments where segment >= start.segment {
            let offset = segment == start.segment ? start.offset : 0
            try? reader.forEachLine(of: segment, from: offset, isActive: segment == activeSegment) { position, bytes in
                pendingCount += 1
                if unindexedFrom == nil, indexedCount < Self.indexLimit {
                    indexCounted(bytes, at: position)
                } else {
                    if unindexedFrom == nil { unindexedFrom = position }
                    unindexedLines[segment, default: 0] += 1
                }
                return true
            }
        }
    }

    /// Indexes waiting lines from the log, oldest first, until the index is full or every waiting line is indexed;
    /// lines that are not an object are skipped and counted.
    mutating func indexBacklog() {
        let reader = reader
        while let from = unindexedFrom, indexedCount < Self.indexLimit {
            guard let count = unindexedLines[from.segment], count > 0 else {
                advanceBacklog(past: from.segment)
                continue
            }
            var taken = 0
            var indexFullAt: LogPosition?
            try? reader.forEachLine(of: from.segment, from: from.offset, isActive: from.segment == activeSegment) {
                position, bytes in
                guard taken < count else { return false }
                guard indexedCount < Self.indexLimit else {
                    indexFullAt = position
                    return false
                }
                taken += 1
                unindexedLines[from.segment] = count - taken
                indexCounted(bytes, at: position)
                return true
            }
            if let indexFullAt {
                unindexedFrom = indexFullAt
                return
            }
            // Lines counted but no longer in the file (a segment that cannot be read) cannot be sent.
            if taken < count {
                pendingCount -= count - taken
                skippedLines += count - taken
            }
            unindexedLines[from.segment] = 0
            advanceBacklog(past: from.segment)
        }
    }

    /// Indexes a line already counted as waiting when it is an object on a line; otherwise it cannot be sent, and is
    /// taken out of the count and counted as skipped.
    private mutating func indexCounted(_ bytes: Data, at position: LogPosition) {
        guard bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}") else {
            pendingCount -= 1
            skippedLines += 1
            return
        }
        index(Data(bytes), at: position, eventID: nil)
    }

    /// Drops the waiting lines not indexed of the segments the log evicted; returns how many.
    mutating func dropEvictedBacklog() -> Int {
        var dropped = 0
        for (segment, count) in unindexedLines where segment < firstKeptSegment {
            dropped += count
            unindexedLines[segment] = nil
        }
        pendingCount -= dropped
        if let from = unindexedFrom, from.segment < firstKeptSegment { advanceBacklog(past: from.segment) }
        return dropped
    }

    /// Moves the backlog's start to the next segment that has waiting lines not indexed, or ends it.
    private mutating func advanceBacklog(past segment: Int) {
        unindexedLines[segment] = nil
        if let next = unindexedLines.filter({ $0.value > 0 }).keys.min() {
            unindexedFrom = LogPosition(segment: max(next, firstKeptSegment), offset: 0)
        } else {
            unindexedFrom = nil
            unindexedLines.removeAll()
        }
    }
}
