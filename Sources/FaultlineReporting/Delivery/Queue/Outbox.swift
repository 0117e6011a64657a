import FaultlineRecords
import Foundation

/// Envelopes waiting to be sent, oldest first, bounded by count and bytes: an append-only log of segment files that
/// each hold many envelopes (``OutboxSegment``), and a cursor that says where delivery stands.
///
/// - Storing an envelope appends one record to the active segment with one `write(2)`: once ``store(_:category:)``
///   returns, the envelope is in the page cache and survives the process being killed. A record a crash cut short at
///   the end of a segment is cut off when the outbox is opened. Each run appends to a segment of its own.
/// - Envelopes are sent oldest first, several at once, as every ``DurableQueue`` sends: one is taken out
///   (``DurableQueue/remove(_:)``, O(1)) when it was delivered or dropped, and the cursor (`outbox-cursor.json`) moves
///   past the oldest taken out; a restarted outbox sends what is stored from it on but what it says is done. A segment
///   none of whose envelopes waits is deleted.
/// - The bytes of the newest envelopes are kept in memory, up to ``cacheBudget``, so that sending them reads nothing
///   back; older ones are read from their segment.
/// - A segment holds at most a sixteenth of ``EnvelopeSegments/Limits/maximumCount`` envelopes and of ``EnvelopeSegments/Limits/maximumBytes`` (8 MiB at
///   most, one envelope at least). Storing past a limit deletes the oldest whole segments, and returns what waited in
///   them for the caller to count as `cache_overflow`.
/// - Envelopes are stored without `sent_at`, which is set when one is sent.
/// - Envelopes an earlier version left one per file (`*.envelope`) are moved into the log when it is opened.
typealias Outbox = DurableQueue<EnvelopeSegments>

/// One envelope in the outbox, as the uploader sends it.
typealias OutboxEntry = QueueEntry

extension DurableQueue where Segments == EnvelopeSegments {
    typealias Limits = EnvelopeSegments.Limits

    /// The most bytes of envelopes kept in memory.
    static var cacheBudget: Int { 8 * 1024 * 1024 }

    /// Opens the outbox in `directory`, creating it when needed: the envelopes an earlier run stored from the stored
    /// cursor on wait. With no cursor stored, every stored envelope waits.
    ///
    /// - Parameter unreadable: Called with each file an earlier version left that is not an envelope Faultline sends;
    ///   the file is deleted.
    /// - Throws: When the directory cannot be created or listed.
    init(directory: URL, limits: Limits, unreadable: (URL, any Error) -> Void) throws {
        let cursorFile = DeliveryCursor.outboxFile(in: directory)
        let manager = FileManager.default
        try manager.createDirectory(at: directory, withIntermediateDirectories: true)
        let names = try manager.contentsOfDirectory(atPath: directory.path).sorted()
        for name in names where name.hasPrefix(".") && name.hasSuffix(".tmp") {
            unlink(directory.appendingPathComponent(name, isDirectory: false).path)
        }
        let cursor = (try? DeliveryCursor.stored(in: cursorFile)) ?? nil
        let numbers = names.compactMap(OutboxSegment.number(ofFile:))
        self.init(
            segments: EnvelopeSegments(
                directory: directory, limits: limits,
                activeSegment: max(numbers.max() ?? 0, cursor?.position.segment ?? 0) + 1),
            cursorFile: cursorFile, storedCursor: cursor, cacheBudget: min(Self.cacheBudget, limits.maximumBytes))
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
        let path = segments.url(ofSegment: number).path
        let from = cursor?.position ?? LogPosition(segment: number, offset: 0)
        let done = Set(cursor?.done ?? [])
        guard number >= from.segment, let contents = try? OutboxSegment.contents(of: path) else {
            unlink(path)
            return
        }
        if contents.end < contents.fileSize { truncate(path, off_t(contents.end)) }
        var segment = EnvelopeSegments.Segment(end: contents.end)
        for record in contents.records {
            segment.bytes += Int(record.length)
            let position = LogPosition(segment: number, offset: record.offset)
            guard position >= from, !done.contains(position), !record.isErased else { continue }
            append(
                at: position, headerSize: record.headerSize, length: Int(record.length), category: record.category)
            segment.records += 1
            segment.pending += 1
            segment.stored(at: record.stored)
        }
        segments.totalBytes += segment.bytes
        if segment.pending > 0 { segments.files[number] = segment } else { unlink(path) }
    }

    var limits: Limits { segments.limits }

    /// The bytes of the envelopes in the segments kept.
    var totalBytes: Int { segments.totalBytes }

    /// Appends `envelope` (serialized without `sent_at`) to the log.
    ///
    /// - Returns: The categories of the envelopes that waited in the segments deleted to make room for it.
    /// - Throws: When the envelope is larger than the outbox, or it cannot be written; nothing is evicted then.
    mutating func store(_ envelope: Data, category: DataCategory, at date: Date = Date()) throws -> [DataCategory] {
        guard envelope.count <= min(limits.maximumBytes, Int(Int32.max)) else {
            throw OutboxError.envelopeTooLarge(size: envelope.count, limit: limits.maximumBytes)
        }
        let (position, headerSize) = try segments.append(envelope, category: category, at: date)
        append(at: position, headerSize: headerSize, length: envelope.count, category: category, bytes: envelope)
        var evicted: [DataCategory] = []
        while count - evictedInFlight > limits.maximumCount || totalBytes > limits.maximumBytes,
            let oldest = segments.oldestInactive
        {
            segments.delete(oldest)
            evicted += evict(before: oldest + 1)
        }
        return evicted
    }

    /// Deletes the segments whose newest envelope was stored before `cutoff`, oldest first, the active one included.
    ///
    /// - Returns: The categories of the envelopes that waited in them; those being sent are done when their send ends.
    mutating func expire(storedBefore cutoff: Date) -> [DataCategory] {
        var expired: [DataCategory] = []
        for number in segments.files.keys.sorted() {
            guard let newest = segments.files[number]?.newest, newest < cutoff else { break }
            if number == segments.activeSegment { segments.rotate() }
            segments.delete(number)
            expired += evict(before: number + 1)
        }
        return expired
    }

    /// Stores the cursor and closes the files; when nothing waits, deletes the segments and the cursor.
    mutating func closeFiles() {
        segments.closeDescriptors()
        if isEmpty {
            segments.deleteAll()
            deleteCursor()
        } else {
            try? storeCursor()
        }
    }
}

/// Why an envelope could not be stored in the outbox.
enum OutboxError: Error, Hashable, CustomStringConvertible {
    /// The envelope alone is larger than the whole outbox may be.
    case envelopeTooLarge(size: Int, limit: Int)

    var description: String {
        switch self {
        case .envelopeTooLarge(let size, let limit):
            "The envelope takes \(size) bytes, more than the outbox's limit of \(limit) bytes; raise "
                + "DeliveryConfiguration.maxOutboxBytes to keep envelopes this large."
        }
    }
}
