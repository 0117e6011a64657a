import Foundation

/// Envelopes waiting to be sent, oldest first, bounded by count and bytes: an append-only log of segment files that
/// each hold many envelopes (``OutboxSegment``), and a cursor that says where delivery stands.
///
/// - Storing an envelope appends one record to the active segment with one `write(2)`: once ``store(_:category:)``
///   returns, the envelope is in the page cache and survives the process being killed. A record a crash cut short at
///   the end of a segment is cut off when the outbox is opened. Each run appends to a segment of its own.
/// - Envelopes are sent oldest first, several at once, through the state machine of a ``DurableQueue``: one is taken
///   out (``remove(_:)``, O(1)) when it was delivered or dropped, and the cursor (`outbox-cursor.json`) moves past the
///   oldest taken out; a restarted outbox sends what is stored from it on but what it says is done. A segment none of
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

    /// A segment file: how many of its envelopes are not done, and its size.
    private struct Segment {
        /// Its records, waiting, being sent or done.
        var records = 0
        var pending = 0
        /// The bytes of its envelopes, which count against the byte limit while the file is kept.
        var bytes = 0
        /// Where its next record starts.
        var end = 0
    }

    /// The most bytes of envelopes kept in memory.
    static let cacheBudget = 8 * 1024 * 1024
    static let cursorFileName = "outbox-cursor.json"

    let directory: URL
    let limits: Limits
    private let segmentCount: Int
    private let segmentBytes: Int
    /// What waits, is being sent, or is done, and the cursor.
    private var queue: DurableQueue
    private var segments: [Int: Segment] = [:]
    private var activeSegment: Int
    private var writer: (segment: Int, descriptor: Int32)?
    private var reader: (segment: Int, descriptor: Int32)?
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
        let cursorFile = directory.appendingPathComponent(Self.cursorFileName, isDirectory: false)
        let manager = FileManager.default
        try manager.createDirectory(at: directory, withIntermediateDirectories: true)
        let names = try manager.contentsOfDirectory(atPath: directory.path).sorted()
        for name in names where name.hasPrefix(".") && name.hasSuffix(".tmp") {
            unlink(directory.appendingPathComponent(name, isDirectory: false).path)
        }
        let cursor = (try? DeliveryCursor.stored(in: cursorFile)) ?? nil
        queue = DurableQueue(
            cursorFile: cursorFile, storedCursor: cursor, cacheBudget: min(Self.cacheBudget, limits.maximumBytes))
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
        var segment = Segment(end: contents.end)
        for record in contents.records {
            segment.bytes += Int(record.length)
            let position = LogPosition(segment: number, offset: record.offset)
            guard position >= from, !done.contains(position) else { continue }
            queue.append(at: position, length: Int(record.length), category: record.category)
            segment.records += 1
            segment.pending += 1
        }
        totalBytes += segment.bytes
        if segment.pending > 0 { segments[number] = segment } else { unlink(path) }
    }

    var isEmpty: Bool { queue.isEmpty }

    /// The envelopes not taken out: waiting or being sent.
    var count: Int { queue.count }

    /// The categories of the envelopes that wait, not being sent.
    var waitingCategories: Dictionary<DataCategory, Int>.Keys { queue.waitingCategories }

    /// The envelopes that wait, not being sent.
    var waitingCount: Int { queue.waitingCount }

    /// The first envelope not taken out, or where the next one will be stored, and up to ``DurableQueue/doneLimit``
    /// envelopes after it that were taken out.
    var cursor: DeliveryCursor { queue.cursor(orElse: end) }

    /// Where the next envelope will be stored.
    private var end: LogPosition {
        LogPosition(segment: activeSegment, offset: segments[activeSegment]?.end ?? 0)
    }

    /// Appends `envelope` (serialized without `sent_at`) to the log.
    ///
    /// - Returns: The categories of the envelopes that waited in the segments deleted to make room for it.
    /// - Throws: When the envelope is larger than the outbox, or it cannot be written; nothing is evicted then.
    mutating func store(_ envelope: Data, category: DataCategory) throws -> [DataCategory] {
        guard envelope.count <= min(limits.maximumBytes, Int(Int32.max)) else {
            throw OutboxError.envelopeTooLarge(size: envelope.count, limit: limits.maximumBytes)
        }
        if let active = segments[activeSegment], active.records > 0,
            active.bytes + envelope.count > segmentBytes || active.records >= segmentCount
        {
            rotate()
        }
        var segment = segments[activeSegment] ?? Segment()
        let descriptor = try writerDescriptor()
        let bytes = OutboxSegment.record(of: envelope, category: category)
        try OutboxSegment.append(bytes, to: descriptor, at: segment.end)
        queue.append(
            at: LogPosition(segment: activeSegment, offset: segment.end), length: envelope.count, category: category,
            bytes: envelope)
        segment.records += 1
        segment.pending += 1
        segment.bytes += envelope.count
        segment.end += bytes.count
        totalBytes += envelope.count
        segments[activeSegment] = segment
        var evicted: [DataCategory] = []
        while queue.count - queue.evictedInFlight > limits.maximumCount || totalBytes > limits.maximumBytes,
            let oldest = segments.keys.filter({ $0 != activeSegment }).min()
        {
            deleteSegment(oldest)
            evicted += queue.evict(before: oldest + 1)
        }
        return evicted
    }

    /// The oldest waiting envelope of a category `isSendable` accepts, marked as being sent; `nil` when none waits.
    mutating func next(where isSendable: (DataCategory) -> Bool) -> OutboxEntry? {
        queue.next(where: isSendable)
    }

    /// The stored bytes of `entry`: from memory, or read back from its segment.
    mutating func contents(of entry: OutboxEntry) throws -> Data {
        if let bytes = queue.cachedBytes(of: entry) { return bytes }
        let record = queue.record(entry)
        let number = record.position.segment
        guard segments[number] != nil else { throw POSIXError(.ENOENT) }
        if reader?.segment != number {
            if let reader { close(reader.descriptor) }
            reader = nil
            let descriptor = open(url(ofSegment: number).path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw OutboxSegment.lastError() }
            reader = (number, descriptor)
        }
        let length = Int(record.length)
        let payloadOffset = record.position.offset + OutboxSegment.headerSize(of: record.category)
        var bytes = Data(count: length)
        let read = bytes.withUnsafeMutableBytes {
            pread(reader?.descriptor ?? -1, $0.baseAddress, length, off_t(payloadOffset))
        }
        guard read == length else { throw read < 0 ? OutboxSegment.lastError() : POSIXError(.EIO) }
        return bytes
    }

    /// Takes `entry` out: it was delivered or dropped. Its segment is deleted when none of its envelopes is left.
    mutating func remove(_ entry: OutboxEntry) {
        guard let record = queue.remove(entry), var segment = segments[record.position.segment] else { return }
        segment.pending -= 1
        segments[record.position.segment] = segment
        if segment.pending == 0, record.position.segment != activeSegment { deleteSegment(record.position.segment) }
    }

    /// Makes `entry`, whose send failed, wait again; returns `false` when its segment was evicted while it was being
    /// sent, in which case it is taken out.
    mutating func retry(_ entry: OutboxEntry) -> Bool {
        queue.retry(entry)
    }

    /// Stores the cursor when it moved since it was last stored.
    mutating func storeCursor() throws {
        try queue.storeCursor(orElse: end)
    }

    /// Stores the cursor and closes the files; when nothing waits, deletes the segments and the cursor.
    mutating func closeFiles() {
        for descriptor in [writer?.descriptor, reader?.descriptor].compactMap({ $0 }) { close(descriptor) }
        writer = nil
        reader = nil
        if queue.isEmpty {
            deleteSegments()
            queue.deleteCursor()
        } else {
            try? storeCursor()
        }
    }

    // MARK: Segments

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
