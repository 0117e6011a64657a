import Foundation

/// The outbox's segment files, `<number, 12 digits>.segment` in its directory (framed as ``OutboxSegment`` says):
/// appended to by the outbox itself, one segment per run at least, each deleted once none of its envelopes is left.
///
/// Envelopes are counted by `Category`, whose raw value is the name a record stores.
package struct EnvelopeSegments<Category: Hashable & Sendable & RawRepresentable<String>>: QueueSegments {
    /// A segment file: its records, how many of them are not done, and its size.
    struct Segment {
        /// Its records, waiting, being sent or done.
        var records = 0
        var pending = 0
        /// The bytes of its envelopes, which count against the byte limit while the file is kept.
        var bytes = 0
        /// Where its next record starts.
        var end = 0
        /// When its first and its last record were stored; `nil` while none is, or for records an earlier version
        /// stored without the time.
        var oldest: Date?
        var newest: Date?

        /// Notes a record stored at `date`.
        mutating func stored(at date: Date?) {
            guard let date else { return }
            oldest = min(oldest ?? date, date)
            newest = max(newest ?? date, date)
        }
    }

    package let directory: URL
    package let limits: OutboxLimits
    /// The most envelopes and bytes of a segment.
    let segmentCount: Int
    let segmentBytes: Int
    /// The segments kept: those with envelopes not done, and the active one.
    var files: [Int: Segment] = [:]
    package var activeSegment: Int
    private var writer: (segment: Int, descriptor: Int32)?
    private var reader: (segment: Int, descriptor: Int32)?
    /// The bytes of the envelopes in the segments kept.
    package var totalBytes = 0

    package init(directory: URL, limits: OutboxLimits, activeSegment: Int) {
        self.directory = directory
        self.limits = limits
        self.activeSegment = activeSegment
        segmentCount = max(1, limits.maximumCount / 16)
        segmentBytes = max(1, min(8 * 1024 * 1024, limits.maximumBytes / 16))
    }

    package var end: LogPosition { LogPosition(segment: activeSegment, offset: files[activeSegment]?.end ?? 0) }

    package var unindexedCount: Int { 0 }

    /// Reads the envelope of `record` with one `pread(2)`, keeping the segment open for the next.
    package mutating func contents(of record: QueueRecord<Category>) throws -> Data {
        let number = record.position.segment
        guard files[number] != nil else { throw POSIXError(.ENOENT) }
        if reader?.segment != number {
            if let reader { close(reader.descriptor) }
            reader = nil
            let descriptor = open(url(ofSegment: number).path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw OutboxSegment.lastError() }
            reader = (number, descriptor)
        }
        let length = Int(record.length)
        let payloadOffset = record.position.offset + Int(record.headerSize)
        var bytes = Data(count: length)
        let read = bytes.withUnsafeMutableBytes {
            pread(reader?.descriptor ?? -1, $0.baseAddress, length, off_t(payloadOffset))
        }
        guard read == length else { throw read < 0 ? OutboxSegment.lastError() : POSIXError(.EIO) }
        return bytes
    }

    /// Deletes the segment of `record` when none of its envelopes is left, unless it is the active one.
    package mutating func didFinish(_ record: QueueRecord<Category>) {
        let number = record.position.segment
        guard var segment = files[number] else { return }
        segment.pending -= 1
        files[number] = segment
        if segment.pending == 0, number != activeSegment { delete(number) }
    }

    package static func fill(_ queue: inout DurableQueue<EnvelopeSegments>) {}

    /// Appends the record of `envelope`, stored at `date`, to the active segment, starting a new one when it is full or
    /// its first record is a 24th of the maximum age old.
    ///
    /// - Returns: Where the record starts, and the bytes before the envelope's.
    package mutating func append(
        _ envelope: Data, category: Category, at date: Date
    ) throws -> (position: LogPosition, headerSize: Int) {
        if let active = files[activeSegment], active.records > 0,
            active.bytes + envelope.count > segmentBytes || active.records >= segmentCount
                || isOld(active, at: date)
        {
            rotate()
        }
        var segment = files[activeSegment] ?? Segment()
        let descriptor = try writerDescriptor()
        let bytes = OutboxSegment.record(of: envelope, category: category.rawValue, stored: date)
        try OutboxSegment.append(bytes, to: descriptor, at: segment.end)
        let position = LogPosition(segment: activeSegment, offset: segment.end)
        segment.records += 1
        segment.pending += 1
        segment.bytes += envelope.count
        segment.end += bytes.count
        segment.stored(at: date)
        totalBytes += envelope.count
        files[activeSegment] = segment
        return (position, bytes.count - envelope.count)
    }

    /// The oldest segment but the active one; `nil` when there is none.
    package var oldestInactive: Int? { files.keys.filter { $0 != activeSegment }.min() }

    /// Closes the files.
    package mutating func closeDescriptors() {
        for descriptor in [writer?.descriptor, reader?.descriptor].compactMap({ $0 }) { close(descriptor) }
        writer = nil
        reader = nil
    }

    /// Whether `segment`'s first envelope is a 24th of the maximum age old at `date`, so that no segment spans more.
    private func isOld(_ segment: Segment, at date: Date) -> Bool {
        guard let age = limits.maximumAge, let oldest = segment.oldest else { return false }
        return date.timeIntervalSince(oldest) >= Retention.span(of: age).timeInterval
    }

    /// Starts a new active segment; the last one is deleted if none of its envelopes is left.
    package mutating func rotate() {
        if let writer { close(writer.descriptor) }
        writer = nil
        let previous = activeSegment
        activeSegment += 1
        if files[previous]?.pending == 0 { delete(previous) }
    }

    /// Deletes segment `number`'s file.
    package mutating func delete(_ number: Int) {
        guard let segment = files.removeValue(forKey: number) else { return }
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
    package mutating func deleteAll() {
        for number in files.keys { delete(number) }
        activeSegment += 1
    }

    private mutating func writerDescriptor() throws -> Int32 {
        if let writer, writer.segment == activeSegment { return writer.descriptor }
        let descriptor = open(
            url(ofSegment: activeSegment).path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw OutboxSegment.lastError() }
        writer = (activeSegment, descriptor)
        return descriptor
    }

    /// The file of segment `number`; saying it is no directory saves the `stat(2)` Foundation makes to find out.
    package func url(ofSegment number: Int) -> URL {
        directory.appendingPathComponent(OutboxSegment.fileName(number), isDirectory: false)
    }
}

/// How much the outbox holds.
package struct OutboxLimits: Hashable, Sendable {
    /// The most envelopes; 1000 by default.
    package var maximumCount = 1000
    /// The most bytes all envelopes take; 32 MiB by default.
    package var maximumBytes = 32 * 1024 * 1024
    /// How long an envelope is kept; `nil` (the default) keeps it until it is sent or a limit deletes it. With an
    /// age, a segment holds envelopes stored within a 24th of it, and is deleted once its newest is that old
    /// (``DurableQueue/expire(storedBefore:)``).
    package var maximumAge: Duration?

    package init(maximumCount: Int = 1000, maximumBytes: Int = 32 * 1024 * 1024, maximumAge: Duration? = nil) {
        self.maximumCount = maximumCount
        self.maximumBytes = maximumBytes
        self.maximumAge = maximumAge
    }
}
