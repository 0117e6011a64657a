import Foundation

/// Envelopes waiting to be sent, oldest first, bounded by count and bytes: an append-only log of segment files that
/// each hold many envelopes (``OutboxSegment``), and a cursor that says where delivery stands.
///
/// - Storing an envelope appends one record to the active segment with one `write(2)`: once ``store(_:category:)``
///   returns, the envelope is in the page cache and survives the process being killed. A record a crash cut short at
///   the end of a segment is cut off when the outbox is opened. Each run appends to a segment of its own.
/// - Envelopes are sent oldest first, several at once. One is taken out (``remove(_:)``, O(1)) when it was delivered
///   or dropped, and the cursor moves past the oldest taken out. The cursor (``DeliveryCursor``, `outbox-cursor.json`)
///   is stored by the uploader at an interval and whenever sending stops; a restarted outbox sends what is stored
///   from it on, so the last envelopes delivered before a crash are sent again (at least once). A segment none of
///   whose envelopes waits is deleted.
/// - The bytes of the newest envelopes are kept in memory, up to ``cacheBudget``, so that sending them reads nothing
///   back; older ones are read from their segment.
/// - A segment holds at most a sixteenth of ``Limits/maximumCount`` envelopes and of ``Limits/maximumBytes`` (8 MiB at
///   most, one envelope at least). Storing past a limit deletes the oldest whole segments, and returns what waited in
///   them for the caller to count as `cache_overflow`.
/// - Envelopes are stored without `sent_at`, which is set when one is sent.
/// - Envelopes an earlier version left one per file (`*.envelope`) are moved into the log when it is opened.
struct Outbox {
    /// How much the outbox holds.
    struct Limits: Hashable, Sendable {
        /// The most envelopes; 1000 by default.
        var maximumCount = 1000
        /// The most bytes all envelopes take; 32 MiB by default.
        var maximumBytes = 32 * 1024 * 1024
    }

    /// A stored envelope, in the order it was stored.
    private struct Record {
        enum State { case waiting, sending, done }
        let segment: Int
        let record: OutboxSegment.Record
        var state = State.waiting
    }

    /// A segment file: the serial numbers of its envelopes, how many of them are not done, and its size.
    private struct Segment {
        let firstSerial: Int
        var endSerial: Int
        var pending = 0
        /// The bytes of its envelopes, which count against the byte limit while the file is kept.
        var bytes = 0
        /// Where its next record starts.
        var end = 0
    }

    /// The most bytes of envelopes kept in memory.
    static let cacheBudget = 8 * 1024 * 1024
    static let cursorFileName = "outbox-cursor.json"
    /// The most envelopes after the cursor that it says are done.
    static let doneLimit = 1024

    let directory: URL
    let limits: Limits
    private let segmentCount: Int
    private let segmentBytes: Int
    private let cursorFile: URL
    /// Records from `firstSerial` on; the oldest not done is at `head`, and none before `firstWaiting` waits.
    private var records: [Record] = []
    private var firstSerial = 0
    private var head = 0
    private var firstWaiting = 0
    /// Records after `head` that are done.
    private var doneAfterHead = 0
    private var segments: [Int: Segment] = [:]
    private var activeSegment: Int
    private var writer: (segment: Int, descriptor: Int32)?
    private var reader: (segment: Int, descriptor: Int32)?
    private var cached: [Int: Data] = [:]
    private var cachedBytes = 0
    private var waitingByCategory: [DataCategory: Int] = [:]
    /// Envelopes being sent whose segment was evicted meanwhile.
    private var evictedInFlight = 0
    private var storedCursor: DeliveryCursor?
    /// The envelopes not taken out: waiting or being sent.
    private(set) var count = 0
    /// The bytes of the envelopes in the segments kept.
    private(set) var totalBytes = 0

    /// Opens the outbox in `directory`, creating it when needed: the envelopes an earlier run stored from the stored
    /// cursor on wait. With no cursor stored, every stored envelope waits.
    ///
    /// - Parameter unreadable: Called with each file an earlier version left that is not an envelope Faultline sends;
    ///   the file is deleted.
    /// - Throws: When the directory cannot be created or listed.
    init(directory: URL, limits: Limits, unreadable: (URL, any Error) -> Void) throws {
        self.directory = directory
        self.limits = limits
        segmentCount = max(1, limits.maximumCount / 16)
        segmentBytes = max(1, min(8 * 1024 * 1024, limits.maximumBytes / 16))
        cursorFile = directory.appendingPathComponent(Self.cursorFileName, isDirectory: false)
        let manager = FileManager.default
        try manager.createDirectory(at: directory, withIntermediateDirectories: true)
        let names = try manager.contentsOfDirectory(atPath: directory.path).sorted()
        for name in names where name.hasPrefix(".") && name.hasSuffix(".tmp") {
            unlink(directory.appendingPathComponent(name, isDirectory: false).path)
        }
        let cursor = (try? DeliveryCursor.stored(in: cursorFile)) ?? nil
        storedCursor = cursor
        let numbers = names.compactMap(OutboxSegment.number(ofFile:))
        activeSegment = max(numbers.max() ?? 0, cursor?.position.segment ?? 0) + 1
        for number in numbers { readSegment(number, from: cursor) }
        for name in names where name.hasSuffix(".envelope") && !name.hasPrefix(".") {
            let file = directory.appendingPathComponent(name, isDirectory: false)
            do {
                let envelope = try Data(contentsOf: file)
                _ = try store(envelope, category: try DataCategory.rateLimiting(envelope))
            } catch {
                unreadable(file, error)
            }
            unlink(file.path)
        }
    }

    /// Reads segment `number` of an earlier run: its envelopes from `cursor` on wait, but those it says are done.
    /// Segments before the cursor's, and segments that cannot be read, are deleted; a record cut short at the end is
    /// cut off.
    private mutating func readSegment(_ number: Int, from cursor: DeliveryCursor?) {
        let path = url(ofSegment: number).path
        let from = cursor?.position ?? LogPosition(segment: number, offset: 0)
        let done = Set(cursor?.done ?? [])
        guard number >= from.segment, let contents = try? OutboxSegment.contents(of: path) else {
            unlink(path)
            return
        }
        if contents.end < contents.fileSize { truncate(path, off_t(contents.end)) }
        var segment = Segment(firstSerial: nextSerial, endSerial: nextSerial, end: contents.end)
        for record in contents.records {
            segment.bytes += Int(record.length)
            let position = LogPosition(segment: number, offset: record.offset)
            guard position >= from, !done.contains(position) else { continue }
            append(Record(segment: number, record: record), to: &segment)
        }
        totalBytes += segment.bytes
        if segment.pending > 0 { segments[number] = segment } else { unlink(path) }
    }

    var isEmpty: Bool { count == 0 }

    /// The categories of the envelopes that wait, not being sent.
    var waitingCategories: Dictionary<DataCategory, Int>.Keys { waitingByCategory.keys }

    /// The envelopes that wait, not being sent.
    var waitingCount: Int { waitingByCategory.values.reduce(0, +) }

    /// The first envelope not taken out, or where the next one will be stored, and up to ``doneLimit`` envelopes
    /// after it that were taken out.
    var cursor: DeliveryCursor {
        guard head < records.count else {
            return DeliveryCursor(
                position: LogPosition(segment: activeSegment, offset: segments[activeSegment]?.end ?? 0))
        }
        var done: [LogPosition] = []
        if doneAfterHead > 0 {
            for index in (head + 1)..<min(records.count, head + 1 + Self.doneLimit * 64)
            where records[index].state == .done {
                done.append(position(of: index))
                if done.count == Self.doneLimit { break }
            }
        }
        return DeliveryCursor(position: position(of: head), done: done.isEmpty ? nil : done)
    }

    private func position(of index: Int) -> LogPosition {
        LogPosition(segment: records[index].segment, offset: records[index].record.offset)
    }

    private var nextSerial: Int { firstSerial + records.count }

    /// Appends `envelope` (serialized without `sent_at`) to the log.
    ///
    /// - Returns: The categories of the envelopes that waited in the segments deleted to make room for it.
    /// - Throws: When the envelope is larger than the outbox, or it cannot be written; nothing is evicted then.
    mutating func store(_ envelope: Data, category: DataCategory) throws -> [DataCategory] {
        guard envelope.count <= min(limits.maximumBytes, Int(Int32.max)) else {
            throw OutboxError.envelopeTooLarge(size: envelope.count, limit: limits.maximumBytes)
        }
        if let active = segments[activeSegment], active.endSerial > active.firstSerial,
            active.bytes + envelope.count > segmentBytes || active.endSerial - active.firstSerial >= segmentCount
        {
            rotate()
        }
        var segment = segments[activeSegment] ?? Segment(firstSerial: nextSerial, endSerial: nextSerial)
        let descriptor = try writerDescriptor()
        let bytes = OutboxSegment.record(of: envelope, category: category)
        try OutboxSegment.append(bytes, to: descriptor, at: segment.end)
        let record = OutboxSegment.Record(offset: segment.end, length: Int32(envelope.count), category: category)
        if cachedBytes + envelope.count <= min(Self.cacheBudget, limits.maximumBytes) {
            cached[nextSerial] = envelope
            cachedBytes += envelope.count
        }
        append(Record(segment: activeSegment, record: record), to: &segment)
        segment.bytes += envelope.count
        segment.end += bytes.count
        totalBytes += envelope.count
        segments[activeSegment] = segment
        var evicted: [DataCategory] = []
        while count - evictedInFlight > limits.maximumCount || totalBytes > limits.maximumBytes,
            let oldest = segments.keys.filter({ $0 != activeSegment }).min()
        {
            evicted += evict(oldest)
        }
        return evicted
    }

    /// The oldest waiting envelope of a category `isSendable` accepts, marked as being sent; `nil` when none waits.
    mutating func next(where isSendable: (DataCategory) -> Bool) -> OutboxEntry? {
        guard waitingByCategory.keys.contains(where: isSendable) else { return nil }
        var index = max(firstWaiting, head)
        while index < records.count, records[index].state != .waiting { index += 1 }
        firstWaiting = index
        while index < records.count {
            let category = records[index].record.category
            if records[index].state == .waiting, isSendable(category) {
                records[index].state = .sending
                countWaiting(category, -1)
                return OutboxEntry(serial: firstSerial + index, category: category)
            }
            index += 1
        }
        return nil
    }

    /// The stored bytes of `entry`: from memory, or read back from its segment.
    mutating func contents(of entry: OutboxEntry) throws -> Data {
        if let bytes = cached[entry.serial] { return bytes }
        let record = records[entry.serial - firstSerial]
        guard segments[record.segment] != nil else { throw POSIXError(.ENOENT) }
        if reader?.segment != record.segment {
            if let reader { close(reader.descriptor) }
            reader = nil
            let descriptor = open(url(ofSegment: record.segment).path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw OutboxSegment.lastError() }
            reader = (record.segment, descriptor)
        }
        let length = Int(record.record.length)
        var bytes = Data(count: length)
        let read = bytes.withUnsafeMutableBytes {
            pread(reader?.descriptor ?? -1, $0.baseAddress, length, off_t(record.record.payloadOffset))
        }
        guard read == length else { throw read < 0 ? OutboxSegment.lastError() : POSIXError(.EIO) }
        return bytes
    }

    /// Takes `entry` out: it was delivered or dropped.
    mutating func remove(_ entry: OutboxEntry) {
        let index = entry.serial - firstSerial
        guard index >= head, index < records.count, records[index].state != .done else { return }
        finish(index)
    }

    /// Makes `entry`, whose send failed, wait again; returns `false` when its segment was evicted while it was being
    /// sent, in which case it is taken out.
    mutating func retry(_ entry: OutboxEntry) -> Bool {
        let index = entry.serial - firstSerial
        guard index >= head, index < records.count, records[index].state == .sending else { return true }
        guard segments[records[index].segment] != nil else {
            finish(index)
            return false
        }
        records[index].state = .waiting
        countWaiting(entry.category, 1)
        firstWaiting = min(firstWaiting, index)
        return true
    }

    /// Stores the cursor when it moved since it was last stored.
    mutating func storeCursor() throws {
        let cursor = cursor
        guard cursor != storedCursor else { return }
        try cursor.store(in: cursorFile)
        storedCursor = cursor
    }

    /// Stores the cursor and closes the files; when nothing waits, deletes the segments and the cursor.
    mutating func closeFiles() {
        for descriptor in [writer?.descriptor, reader?.descriptor].compactMap({ $0 }) { close(descriptor) }
        writer = nil
        reader = nil
        if count == 0 {
            deleteSegments()
            unlink(cursorFile.path)
            storedCursor = nil
        } else {
            try? storeCursor()
        }
    }

    // MARK: Bookkeeping

    private mutating func append(_ record: Record, to segment: inout Segment) {
        records.append(record)
        segment.endSerial += 1
        segment.pending += 1
        count += 1
        countWaiting(record.record.category, 1)
    }

    private mutating func countWaiting(_ category: DataCategory, _ change: Int) {
        let waiting = waitingByCategory[category, default: 0] + change
        waitingByCategory[category] = waiting > 0 ? waiting : nil
    }

    /// Marks the record at `index` done, deletes its segment when none of its envelopes is left, and moves the head
    /// past the records done.
    private mutating func finish(_ index: Int) {
        let record = records[index]
        if record.state == .waiting { countWaiting(record.record.category, -1) }
        records[index].state = .done
        count -= 1
        if let bytes = cached.removeValue(forKey: firstSerial + index) { cachedBytes -= bytes.count }
        if var segment = segments[record.segment] {
            segment.pending -= 1
            segments[record.segment] = segment
            if segment.pending == 0, record.segment != activeSegment { deleteSegment(record.segment) }
        } else if record.state == .sending {
            evictedInFlight -= 1
        }
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

    /// Deletes segment `number`, an old one; returns the categories of its envelopes that waited, which are taken
    /// out. Those being sent are taken out when their send ends.
    private mutating func evict(_ number: Int) -> [DataCategory] {
        guard let segment = segments[number] else { return [] }
        deleteSegment(number)
        var evicted: [DataCategory] = []
        for serial in max(segment.firstSerial, firstSerial + head)..<segment.endSerial {
            let index = serial - firstSerial
            switch records[index].state {
            case .waiting:
                evicted.append(records[index].record.category)
                finish(index)
            case .sending: evictedInFlight += 1
            case .done: break
            }
        }
        return evicted
    }

    /// Starts a new active segment; the last one is deleted if none of its envelopes is left.
    private mutating func rotate() {
        if let writer { close(writer.descriptor) }
        writer = nil
        let previous = activeSegment
        activeSegment += 1
        if segments[previous]?.pending == 0 { deleteSegment(previous) }
    }

    private mutating func deleteSegment(_ number: Int) {
        guard let segment = segments.removeValue(forKey: number) else { return }
        totalBytes -= segment.bytes
        if reader?.segment == number, let reader {
            close(reader.descriptor)
            self.reader = nil
        }
        if writer?.segment == number, let writer {
            close(writer.descriptor)
            self.writer = nil
        }
        unlink(url(ofSegment: number).path)
    }

    /// Deletes every segment, as when nothing waits; the next envelope starts a new one.
    private mutating func deleteSegments() {
        for number in segments.keys { deleteSegment(number) }
        activeSegment += 1
    }

    // MARK: Files

    private mutating func writerDescriptor() throws -> Int32 {
        if let writer, writer.segment == activeSegment { return writer.descriptor }
        let descriptor = open(
            url(ofSegment: activeSegment).path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw OutboxSegment.lastError() }
        writer = (activeSegment, descriptor)
        return descriptor
    }

    /// The file of segment `number`; saying it is no directory saves the `stat(2)` Foundation makes to find out.
    private func url(ofSegment number: Int) -> URL {
        directory.appendingPathComponent(OutboxSegment.fileName(number), isDirectory: false)
    }
}
