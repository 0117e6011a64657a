import Foundation

/// The lines of the local log still to be delivered to one destination, read where the log wrote them: the log is the
/// outbox, and each event is written once.
///
/// - Lines are sent oldest first through the state machine of a ``DurableQueue``: a line is acknowledged when it was
///   delivered or dropped, and the cursor moves past the oldest lines acknowledged. The cursor is stored in a file
///   (``DeliveryCursor``), so a restarted app sends the lines from it on but those it says are done. With no cursor
///   stored, delivery starts at the end of the log: an app that gets a DSN does not send the history it logged before.
/// - At most ``indexLimit`` waiting lines are indexed in memory (their positions, and the bytes of the newest up to
///   ``cacheBudget``); the lines after them, a backlog of an outage, are only counted by segment and indexed from the
///   log as the index drains (``DeliveryJournal+Backlog.swift``), so memory does not grow with the backlog.
/// - When the log's size cap evicts a segment, its lines not sent yet are dropped and counted.
struct DeliveryJournal {
    /// A line to send: its number in the journal, its bytes, and its event's id when the writer said it.
    struct Line {
        let serial: Int
        let bytes: Data
        let eventID: String?
    }

    /// The most bytes of lines kept in memory.
    static let cacheBudget = 4 * 1024 * 1024
    /// The most waiting lines indexed in memory.
    static let indexLimit = 10_000

    /// The indexed lines: waiting, being sent, or done, and the cursor.
    var queue: DurableQueue
    /// Where the line after the last line the journal was told of starts.
    var end: LogPosition
    private(set) var activeSegment: Int
    var reader: LogSegmentReader
    /// Where the first waiting line that is not indexed starts; `nil` when every waiting line is indexed.
    var unindexedFrom: LogPosition?
    /// The waiting lines not indexed, by segment, and how many they are in all.
    var unindexedLines: [Int: Int] = [:]
    var unindexedCount = 0
    /// Lines found that cannot be sent (not an object on a line), not yet counted by the uploader.
    var skippedLines = 0

    /// Opens the journal of `log` for the destination whose cursor is kept in `cursorFile`: the lines from the stored
    /// cursor to the end of the log are waiting, but those it says are done. Call it after the log was opened (which
    /// cuts off a line a crash cut short) and before lines are appended.
    ///
    /// A rotated file that cannot be read (corrupt gzip) is skipped: its lines cannot be sent, and `faultline stats`
    /// names the file. Lines that are not an object are skipped, counted in ``takeSkippedLines()``.
    init(log: EventLog.Configuration, cursorFile: URL) throws {
        let (segments, activeSegment) = try EventLog.segments(of: log)
        let activeSize = (try? EventLog.size(of: log.activeFile)) ?? 0
        let cursor = try DeliveryCursor.stored(in: cursorFile)
        self.queue = DurableQueue(
            cursorFile: cursorFile, storedCursor: cursor, cacheBudget: Self.cacheBudget,
            firstKeptSegment: segments.min() ?? activeSegment)
        self.activeSegment = activeSegment
        self.end = LogPosition(segment: activeSegment, offset: activeSize)
        self.reader = LogSegmentReader(log: log)
        guard let cursor else {
            try storeCursor()
            return
        }
        readWaitingLines(from: cursor, segments: segments + [activeSegment])
    }

    var isEmpty: Bool { pendingCount == 0 }

    /// How many lines wait, being sent included, indexed or not.
    var pendingCount: Int { queue.count + unindexedCount }

    /// The first line not delivered, or where the next line starts, and the lines after it delivered.
    var cursor: DeliveryCursor { queue.cursor(orElse: unindexedFrom ?? end) }

    /// Whether a line waits to be sent, not being sent already.
    var hasWaiting: Bool { unindexedFrom != nil || queue.hasWaiting }

    /// The lines found since the last call that cannot be sent, for the uploader to count.
    mutating func takeSkippedLines() -> Int {
        defer { skippedLines = 0 }
        return skippedLines
    }

    /// Adds the line the log wrote at `position`, whose event has the id `eventID` when the caller knows it: indexed,
    /// or only counted when the index is full.
    mutating func append(_ line: Data, at position: LogPosition, eventID: String?) {
        activeSegment = max(activeSegment, position.segment)
        end = LogPosition(segment: position.segment, offset: position.offset + line.count + 1)
        guard unindexedFrom == nil, queue.count < Self.indexLimit else {
            if unindexedFrom == nil { unindexedFrom = position }
            unindexedLines[position.segment, default: 0] += 1
            unindexedCount += 1
            return
        }
        queue.append(at: position, length: line.count, category: .error, eventID: eventID, bytes: line)
    }

    /// Notes that the log is at `position` after lines the journal does not send (an event a rate limit refused).
    mutating func skip(to position: LogPosition) {
        activeSegment = max(activeSegment, position.segment)
        end = max(end, position)
    }

    /// The oldest waiting line, marked as being sent; `nil` when none waits.
    ///
    /// - Throws: ``LogSegmentReader/Failure`` when its bytes cannot be read back; the line is acknowledged then.
    mutating func nextLine() throws(LogSegmentReader.Failure) -> Line? {
        if unindexedFrom != nil, queue.count < Self.indexLimit / 2 { indexBacklog() }
        guard let entry = queue.next(where: { _ in true }) else { return nil }
        let record = queue.record(entry)
        if let cached = queue.cachedBytes(of: entry) {
            return Line(serial: entry.serial, bytes: cached, eventID: record.eventID)
        }
        do {
            let bytes = try reader.line(
                at: record.position, length: Int(record.length), activeSegment: activeSegment)
            return Line(serial: entry.serial, bytes: bytes, eventID: record.eventID)
        } catch {
            queue.remove(entry)
            throw error
        }
    }

    /// Makes the line `serial` wait again, as after a failed send; returns `false` when the log evicted its segment
    /// while it was being sent, in which case it is dropped.
    mutating func retry(_ serial: Int) -> Bool {
        queue.retry(DurableQueue.Entry(serial: serial, category: .error))
    }

    /// Marks the line `serial` delivered or dropped; the cursor moves past the oldest lines so marked.
    mutating func acknowledge(_ serial: Int) {
        queue.remove(DurableQueue.Entry(serial: serial, category: .error))
    }

    /// Drops the waiting lines of `segments`, whose files the log evicted (the oldest, always), even those still in
    /// memory: what is sent is what the log holds, so a restart never finds a cursor into a deleted file. Lines being
    /// sent are dropped if their send fails. Returns how many were dropped.
    mutating func evict(_ segments: [Int]) -> Int {
        guard let newest = segments.max() else { return 0 }
        return queue.evict(before: newest + 1).count + dropEvictedBacklog()
    }

    /// Stores the cursor when it moved since it was last stored.
    mutating func storeCursor() throws {
        try queue.storeCursor(orElse: unindexedFrom ?? end)
    }
}
