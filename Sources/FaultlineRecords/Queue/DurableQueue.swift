import Foundation

/// Records kept in numbered segment files, sent oldest first, and a cursor stored beside them that says what a restart
/// sends again: the outbox (``Outbox``, envelopes it appends to segment files of its own) and a reporter's delivery
/// over its log (``LogQueue``, the lines the event log appended). What differs between them, how records are framed in
/// their files, who appends them, and where delivery starts with no cursor, is their ``QueueSegments``.
///
/// - Each record has a serial number, in the order it was stored, and a state: waiting, being sent, done (delivered
///   or dropped). Records are appended in the order of their positions.
/// - The cursor is the position of the oldest record not done (or, when none is left, where the next one will be),
///   and up to ``doneLimit`` records after it that are done. It is stored (``storeCursor()``) at an interval
///   and whenever sending stops, so a restart sends the records from it on but those it says are done: the last
///   records delivered before a crash are sent again (at least once). This is what survives a crash.
/// - Segments are evicted whole and oldest first (``evict(before:)``): their waiting records are done, returned once
///   to be counted; those being sent are done when their send ends, and are not retried.
/// - The bytes of the newest records are kept in memory, up to a budget, so that sending them reads nothing back.
package struct DurableQueue<Segments: QueueSegments> {
    package typealias Category = Segments.Category

    /// The most records after the cursor that it says are done.
    package static var doneLimit: Int { 1024 }

    package let cursorFile: URL
    /// The most bytes of records kept in memory.
    package let cacheBudget: Int
    /// The files, and what differs between queues.
    package var segments: Segments
    /// Records from `firstSerial` on; the oldest not done is at `head`, and none before `firstWaiting` waits.
    private var records: [QueueRecord<Category>] = []
    private var firstSerial = 0
    private var head = 0
    private var firstWaiting = 0
    /// Records after `head` that are done.
    private var doneAfterHead = 0
    private var cached: [Int: Data] = [:]
    private var cachedBytes = 0
    private var waitingByCategory: [Category: Int] = [:]
    private var storedCursor: DeliveryCursor?
    /// The records not done: waiting or being sent.
    package private(set) var count = 0
    /// Records being sent whose segment was evicted meanwhile.
    package private(set) var evictedInFlight = 0
    /// The oldest segment not evicted: records before it are not sent again.
    package private(set) var firstKeptSegment: Int

    /// A queue with no record over `segments`, whose cursor is kept in `cursorFile` and was found there as
    /// `storedCursor`.
    package init(
        segments: Segments, cursorFile: URL, storedCursor: DeliveryCursor?, cacheBudget: Int,
        firstKeptSegment: Int = 0
    ) {
        self.segments = segments
        self.cursorFile = cursorFile
        self.storedCursor = storedCursor
        self.cacheBudget = cacheBudget
        self.firstKeptSegment = firstKeptSegment
    }

    package var isEmpty: Bool { pendingCount == 0 }

    /// The records not done, those not in memory yet included.
    package var pendingCount: Int { count + segments.unindexedCount }

    /// The serial number the next record gets.
    package var nextSerial: Int { firstSerial + records.count }

    /// The categories of the records that wait, not being sent.
    package var waitingCategories: Dictionary<Category, Int>.Keys { waitingByCategory.keys }

    /// The records that wait, not being sent.
    package var waitingCount: Int { waitingByCategory.values.reduce(0, +) }

    /// Whether a record waits, not being sent, those not in memory yet included.
    package var hasWaiting: Bool { !waitingByCategory.isEmpty || segments.unindexedCount > 0 }

    /// The cursor: the oldest record not done and up to ``doneLimit`` done records after it; where the next record
    /// will be when every record is done.
    package var cursor: DeliveryCursor {
        guard head < records.count else { return DeliveryCursor(position: segments.end) }
        var done: [LogPosition] = []
        if doneAfterHead > 0 {
            for index in (head + 1)..<min(records.count, head + 1 + Self.doneLimit * 64)
            where records[index].state == .done {
                done.append(records[index].position)
                if done.count == Self.doneLimit { break }
            }
        }
        return DeliveryCursor(position: records[head].position, done: done.isEmpty ? nil : done)
    }

    /// Adds a waiting record, after every record stored, framed in its segment by `headerSize` bytes before what it
    /// holds; keeps `bytes` in memory when they fit in the budget.
    package mutating func append(
        at position: LogPosition, headerSize: Int = 0, length: Int, category: Category, eventID: String? = nil,
        bytes: Data? = nil
    ) {
        if let bytes, cachedBytes + bytes.count <= cacheBudget {
            cached[nextSerial] = bytes
            cachedBytes += bytes.count
        }
        records.append(
            QueueRecord(
                position: position, length: Int32(length), category: category, headerSize: UInt8(headerSize),
                eventID: eventID))
        count += 1
        countWaiting(category, 1)
    }

    /// The oldest waiting record of a category `isSendable` accepts, marked as being sent; `nil` when none waits.
    package mutating func next(where isSendable: (Category) -> Bool) -> QueueEntry<Category>? {
        Segments.fill(&self)
        guard waitingByCategory.keys.contains(where: isSendable) else { return nil }
        var index = max(firstWaiting, head)
        while index < records.count, records[index].state != .waiting { index += 1 }
        firstWaiting = index
        while index < records.count {
            let category = records[index].category
            if records[index].state == .waiting, isSendable(category) {
                records[index].state = .sending
                countWaiting(category, -1)
                return QueueEntry(serial: firstSerial + index, category: category)
            }
            index += 1
        }
        return nil
    }

    /// The record `entry` stands for.
    package func record(_ entry: QueueEntry<Category>) -> QueueRecord<Category> {
        records[entry.serial - firstSerial]
    }

    /// The bytes of `entry`: from memory, or read back from its segment.
    package mutating func contents(of entry: QueueEntry<Category>) throws -> Data {
        if let bytes = cached[entry.serial] { return bytes }
        return try segments.contents(of: records[entry.serial - firstSerial])
    }

    /// Marks `entry` done: it was delivered or dropped.
    package mutating func remove(_ entry: QueueEntry<Category>) {
        let index = entry.serial - firstSerial
        guard index >= head, index < records.count, records[index].state != .done else { return }
        finish(index)
    }

    /// Makes `entry`, whose send failed, wait again; returns `false` when its segment was evicted while it was being
    /// sent, in which case it is done.
    package mutating func retry(_ entry: QueueEntry<Category>) -> Bool {
        let index = entry.serial - firstSerial
        guard index >= head, index < records.count, records[index].state == .sending else { return true }
        guard records[index].position.segment >= firstKeptSegment else {
            finish(index)
            return false
        }
        records[index].state = .waiting
        countWaiting(entry.category, 1)
        firstWaiting = min(firstWaiting, index)
        return true
    }

    /// Notes that the segments before `segment` were evicted, the oldest: their waiting records are done, and their
    /// categories returned to be counted, once; those being sent are done when their send ends.
    package mutating func evict(before segment: Int) -> [Category] {
        guard segment > firstKeptSegment else { return [] }
        let previous = firstKeptSegment
        firstKeptSegment = segment
        var evicted: [Category] = []
        // The records of segments evicted before were taken care of then; records are in the order of their positions.
        var low = head
        var high = records.count
        while low < high {
            let middle = (low + high) / 2
            if records[middle].position.segment < previous { low = middle + 1 } else { high = middle }
        }
        // By serial number: finishing a record may drop the records done from the front of the array.
        var serial = firstSerial + low
        while serial - firstSerial < records.count, records[serial - firstSerial].position.segment < segment {
            let index = serial - firstSerial
            switch records[index].state {
            case .waiting:
                evicted.append(records[index].category)
                finish(index)
            case .sending: evictedInFlight += 1
            case .done: break
            }
            serial += 1
        }
        return evicted
    }

    /// Stores the cursor when it moved since it was last stored.
    package mutating func storeCursor() throws {
        let cursor = cursor
        guard cursor != storedCursor else { return }
        try cursor.store(in: cursorFile)
        storedCursor = cursor
    }

    /// Deletes the stored cursor, as when nothing is left to send.
    package mutating func deleteCursor() {
        unlink(cursorFile.path)
        storedCursor = nil
    }

    private mutating func countWaiting(_ category: Category, _ change: Int) {
        let waiting = waitingByCategory[category, default: 0] + change
        waitingByCategory[category] = waiting > 0 ? waiting : nil
    }

    /// Marks the record at `index` done and moves the head past the records done.
    private mutating func finish(_ index: Int) {
        let record = records[index]
        if record.state == .waiting { countWaiting(record.category, -1) }
        if record.state == .sending, record.position.segment < firstKeptSegment { evictedInFlight -= 1 }
        records[index].state = .done
        count -= 1
        segments.didFinish(record)
        if let bytes = cached.removeValue(forKey: firstSerial + index) { cachedBytes -= bytes.count }
        if index > head {
            doneAfterHead += 1
        } else {
            head += 1
            while head < records.count, records[head].state == .done {
                head += 1
                doneAfterHead -= 1
            }
        }
        // Dropping the records done costs a copy of those left: amortized O(1) once they are at least half.
        if head >= 4096, head * 2 >= records.count {
            records.removeFirst(head)
            firstSerial += head
            firstWaiting = max(0, firstWaiting - head)
            head = 0
        }
    }
}
