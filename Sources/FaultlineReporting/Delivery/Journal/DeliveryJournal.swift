import Foundation

/// The lines of the local log still to be delivered to one destination, read where the log wrote them: the log is the
/// outbox, and each event is written once.
///
/// - Lines are sent oldest first; a line is acknowledged when it was delivered or dropped, and the cursor moves past
///   the oldest lines acknowledged. The cursor is stored in a file (``DeliveryCursor``), so a restarted app sends the
///   lines from it on. With no cursor stored, delivery starts at the end of the log: an app that gets a DSN does not
///   send the history it logged before.
/// - At most ``indexLimit`` waiting lines are indexed in memory (their positions, and the bytes of the newest up to
///   ``cacheBudget``); the lines after them, a backlog of an outage, are only counted by segment and indexed from the
///   log as the index drains (``DeliveryJournal+Backlog.swift``), so memory does not grow with the backlog.
/// - When the log's size cap evicts a segment, its lines not sent yet are dropped and counted.
struct DeliveryJournal {
    /// A line waiting to be delivered.
    struct Entry {
        enum State { case waiting, sending, done }
        let position: LogPosition
        /// Its length without the newline.
        let length: Int32
        /// Its event's id, when the writer said it.
        let eventID: String?
        var state = State.waiting
    }

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

    let cursorFile: URL
    /// Entries from the oldest not acknowledged on; `entries[i]` has the serial number `firstSerial + i`.
    private var entries: [Entry] = []
    private var firstSerial = 0
    /// The bytes of lines kept in memory, by serial number.
    private var cachedLines: [Int: Data] = [:]
    private var cachedBytes = 0
    /// No entry before this serial number is waiting.
    private var firstWaiting = 0
    /// Where the line after the last line the journal was told of starts.
    var end: LogPosition
    private(set) var activeSegment: Int
    /// The oldest segment the log has not evicted, as far as the journal was told.
    var firstKeptSegment = 0
    var reader: LogSegmentReader
    private var storedCursor: DeliveryCursor?
    /// How many lines wait, being sent included, indexed or not.
    var pendingCount = 0
    /// Where the first waiting line that is not indexed starts; `nil` when every waiting line is indexed.
    var unindexedFrom: LogPosition?
    /// The waiting lines not indexed, by segment.
    var unindexedLines: [Int: Int] = [:]
    /// Lines found that cannot be sent (not an object on a line), not yet counted by the uploader.
    var skippedLines = 0

    /// Opens the journal of `log` for the destination whose cursor is kept in `cursorFile`: the lines from the stored
    /// cursor to the end of the log are waiting. Call it after the log was opened (which cuts off a line a crash cut
    /// short) and before lines are appended.
    ///
    /// A rotated file that cannot be read (corrupt gzip) is skipped: its lines cannot be sent, and `faultline stats`
    /// names the file. Lines that are not an object are skipped, counted in ``takeSkippedLines()``.
    init(log: EventLog.Configuration, cursorFile: URL) throws {
        let (segments, activeSegment) = try EventLog.segments(of: log)
        let activeSize = (try? EventLog.size(of: log.activeFile)) ?? 0
        self.cursorFile = cursorFile
        self.activeSegment = activeSegment
        self.end = LogPosition(segment: activeSegment, offset: activeSize)
        self.reader = LogSegmentReader(log: log)
        self.firstKeptSegment = segments.min() ?? activeSegment
        guard let cursor = try DeliveryCursor.stored(in: cursorFile) else {
            try storeCursor()
            return
        }
        readWaitingLines(from: cursor.position, segments: segments + [activeSegment])
    }

    var isEmpty: Bool { pendingCount == 0 }

    /// The first line not delivered, or where the next line starts.
    var cursor: DeliveryCursor {
        DeliveryCursor(position: entries.first { $0.state != .done }?.position ?? unindexedFrom ?? end)
    }

    /// Whether a line waits to be sent, not being sent already.
    var hasWaiting: Bool {
        unindexedFrom != nil || entries[(firstWaiting - firstSerial)...].contains { $0.state == .waiting }
    }

    /// How many waiting lines are indexed.
    var indexedCount: Int { pendingCount - unindexedLines.values.reduce(0, +) }

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
        guard unindexedFrom == nil, indexedCount < Self.indexLimit else {
            if unindexedFrom == nil { unindexedFrom = position }
            unindexedLines[position.segment, default: 0] += 1
            pendingCount += 1
            return
        }
        pendingCount += 1
        index(line, at: position, eventID: eventID)
    }

    /// Indexes a waiting line (counted in ``pendingCount`` already), keeping its bytes when they fit in the budget.
    mutating func index(_ line: Data, at position: LogPosition, eventID: String?) {
        let serial = firstSerial + entries.count
        entries.append(Entry(position: position, length: Int32(line.count), eventID: eventID))
        if cachedBytes + line.count <= Self.cacheBudget {
            cachedLines[serial] = line
            cachedBytes += line.count
        }
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
        if unindexedFrom != nil, indexedCount < Self.indexLimit / 2 { indexBacklog() }
        var index = firstWaiting - firstSerial
        while index < entries.count, entries[index].state != .waiting { index += 1 }
        firstWaiting = firstSerial + index
        guard index < entries.count else { return nil }
        let serial = firstSerial + index
        entries[index].state = .sending
        firstWaiting = serial + 1
        let entry = entries[index]
        if let cached = cachedLines[serial] {
            return Line(serial: serial, bytes: cached, eventID: entry.eventID)
        }
        do {
            let bytes = try reader.line(at: entry.position, length: Int(entry.length), activeSegment: activeSegment)
            return Line(serial: serial, bytes: bytes, eventID: entry.eventID)
        } catch {
            acknowledge(serial)
            throw error
        }
    }

    /// Makes the line `serial` wait again, as after a failed send; returns `false` when the log evicted its segment
    /// while it was being sent, in which case it is dropped.
    mutating func retry(_ serial: Int) -> Bool {
        guard serial >= firstSerial, entries[serial - firstSerial].state == .sending else { return true }
        guard entries[serial - firstSerial].position.segment >= firstKeptSegment else {
            acknowledge(serial)
            return false
        }
        entries[serial - firstSerial].state = .waiting
        firstWaiting = min(firstWaiting, serial)
        return true
    }

    /// Marks the line `serial` delivered or dropped; the cursor moves past the oldest lines so marked.
    mutating func acknowledge(_ serial: Int) {
        guard serial >= firstSerial, serial < firstSerial + entries.count,
            entries[serial - firstSerial].state != .done
        else { return }
        entries[serial - firstSerial].state = .done
        pendingCount -= 1
        if let cached = cachedLines.removeValue(forKey: serial) { cachedBytes -= cached.count }
        var done = 0
        while done < entries.count, entries[done].state == .done { done += 1 }
        guard done > 0 else { return }
        // Removing from the front of an array moves the rest: do it in batches.
        if done == entries.count || done >= 1024 {
            entries.removeFirst(done)
            firstSerial += done
            firstWaiting = max(firstWaiting, firstSerial)
        }
    }

    /// Drops the waiting lines of `segments`, whose files the log evicted (the oldest, always), even those still in
    /// memory: what is sent is what the log holds, so a restart never finds a cursor into a deleted file. Lines being
    /// sent are dropped if their send fails. Returns how many were dropped.
    mutating func evict(_ segments: [Int]) -> Int {
        guard let newest = segments.max() else { return 0 }
        firstKeptSegment = max(firstKeptSegment, newest + 1)
        var dropped: [Int] = []
        for (index, entry) in entries.enumerated()
        where entry.state == .waiting && entry.position.segment < firstKeptSegment {
            dropped.append(firstSerial + index)
        }
        for serial in dropped { acknowledge(serial) }
        return dropped.count + dropEvictedBacklog()
    }

    /// Stores the cursor when it moved since it was last stored.
    mutating func storeCursor() throws {
        let cursor = cursor
        guard cursor != storedCursor else { return }
        try cursor.store(in: cursorFile)
        storedCursor = cursor
    }
}
