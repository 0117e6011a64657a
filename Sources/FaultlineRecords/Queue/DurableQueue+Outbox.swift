import Foundation

/// The outbox: envelopes waiting to be sent, oldest first, bounded by count and bytes; an append-only log of segment
/// files that each hold many envelopes (``OutboxSegment``), and a cursor that says where delivery stands.
///
/// - Storing an envelope appends one record to the active segment with one `write(2)`: once ``store(_:category:at:)``
///   returns, the envelope is in the page cache and survives the process being killed. A record a crash cut short at
///   the end of a segment is cut off when the outbox is opened. Each run appends to a segment of its own.
/// - Envelopes are sent oldest first, several at once, as every ``DurableQueue`` sends: one is taken out
///   (``DurableQueue/remove(_:)``, O(1)) when it was delivered or dropped, and the cursor (`outbox-cursor.json`) moves
///   past the oldest taken out; a restarted outbox sends what is stored from it on but what it says is done. A segment
///   none of whose envelopes waits is deleted.
/// - The bytes of the newest envelopes are kept in memory, up to ``outboxCacheBudget``, so that sending them reads
///   nothing back; older ones are read from their segment.
/// - A segment holds at most a sixteenth of ``OutboxLimits/maximumCount`` envelopes and of
///   ``OutboxLimits/maximumBytes`` (8 MiB at most, one envelope at least). Storing past a limit deletes the oldest
///   whole segments, and returns what waited in them for the caller to count as `cache_overflow`.
/// - Envelopes are stored without `sent_at`, which is set when one is sent.
extension DurableQueue {
    /// The most bytes of envelopes an outbox keeps in memory.
    package static var outboxCacheBudget: Int { 8 * 1024 * 1024 }

    /// Opens the outbox in `directory`, creating it when needed: the envelopes an earlier run stored from the stored
    /// cursor on wait. With no cursor stored, every stored envelope waits. A record whose category `C` does not name
    /// ends its segment, as a record a crash cut short does.
    ///
    /// - Throws: When the directory cannot be created or listed.
    package init<C>(outboxIn directory: URL, limits: OutboxLimits) throws where Segments == EnvelopeSegments<C> {
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
            cursorFile: cursorFile, storedCursor: cursor,
            cacheBudget: min(Self.outboxCacheBudget, limits.maximumBytes))
        for number in numbers { readSegment(number, from: cursor) }
    }

    /// Reads segment `number` of an earlier run: its envelopes from `cursor` on wait, but those it says are done.
    /// Segments before the cursor's, and segments that cannot be read, are deleted; a record cut short at the end, or
    /// of a category `C` does not name, is cut off with what follows it.
    private mutating func readSegment<C>(_ number: Int, from cursor: DeliveryCursor?)
    where Segments == EnvelopeSegments<C> {
        let path = segments.url(ofSegment: number).path
        let from = cursor?.position ?? LogPosition(segment: number, offset: 0)
        let done = Set(cursor?.done ?? [])
        guard number >= from.segment, var contents = try? OutboxSegment.contents(of: path) else {
            unlink(path)
            return
        }
        if let unknown = contents.records.firstIndex(where: { C(rawValue: $0.category) == nil }) {
            contents.end = contents.records[unknown].offset
            contents.records.removeSubrange(unknown...)
        }
        if contents.end < contents.fileSize { truncate(path, off_t(contents.end)) }
        var segment = EnvelopeSegments<C>.Segment(end: contents.end)
        for record in contents.records {
            segment.bytes += Int(record.length)
            let position = LogPosition(segment: number, offset: record.offset)
            guard position >= from, !done.contains(position), !record.isErased,
                let category = C(rawValue: record.category)
            else { continue }
            append(at: position, headerSize: record.headerSize, length: Int(record.length), category: category)
            segment.records += 1
            segment.pending += 1
            segment.stored(at: record.stored)
        }
        segments.totalBytes += segment.bytes
        if segment.pending > 0 { segments.files[number] = segment } else { unlink(path) }
    }

    /// Appends `envelope` (serialized without `sent_at`) to the log.
    ///
    /// - Returns: The categories of the envelopes that waited in the segments deleted to make room for it.
    /// - Throws: When the envelope is larger than the outbox, or it cannot be written; nothing is evicted then.
    package mutating func store<C>(
        _ envelope: Data, category: C, at date: Date = Date()
    ) throws -> [C] where Segments == EnvelopeSegments<C> {
        let limits = segments.limits
        guard envelope.count <= min(limits.maximumBytes, Int(Int32.max)) else {
            throw OutboxError.envelopeTooLarge(size: envelope.count, limit: limits.maximumBytes)
        }
        let (position, headerSize) = try segments.append(envelope, category: category, at: date)
        append(at: position, headerSize: headerSize, length: envelope.count, category: category, bytes: envelope)
        var evicted: [C] = []
        while count - evictedInFlight > limits.maximumCount || segments.totalBytes > limits.maximumBytes,
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
    package mutating func expire<C>(storedBefore cutoff: Date) -> [C] where Segments == EnvelopeSegments<C> {
        var expired: [C] = []
        for number in segments.files.keys.sorted() {
            guard let newest = segments.files[number]?.newest, newest < cutoff else { break }
            if number == segments.activeSegment { segments.rotate() }
            segments.delete(number)
            expired += evict(before: number + 1)
        }
        return expired
    }

    /// Stores the cursor and closes the files; when nothing waits, deletes the segments and the cursor.
    package mutating func closeFiles<C>() where Segments == EnvelopeSegments<C> {
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
package enum OutboxError: Error, Hashable, CustomStringConvertible {
    /// The envelope alone is larger than the whole outbox may be.
    case envelopeTooLarge(size: Int, limit: Int)

    package var description: String {
        switch self {
        case .envelopeTooLarge(let size, let limit):
            "The envelope takes \(size) bytes, more than the outbox's limit of \(limit) bytes; raise "
                + "DeliveryConfiguration.maxOutboxBytes to keep envelopes this large."
        }
    }
}
