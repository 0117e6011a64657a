import Foundation

/// Reads lines of an ``EventLog`` back by their positions: from the active file, or from the rotated file of their
/// segment, decompressed. The segment last read is kept, so a backlog is read one file at a time.
struct LogSegmentReader {
    /// Why a line could not be read.
    enum Failure: Error {
        /// Its segment is no longer in the log: the size cap evicted it.
        case evicted
        /// Its bytes are not a whole line where it was said to be.
        case unreadable(String)
    }

    let log: EventLog.Configuration
    /// The segment read last, and its bytes.
    private var cached: (segment: Int, bytes: Data)?

    /// The most bytes a rotated file is decompressed to: a segment holds up to the file size, or one line larger.
    private static let maximumSegmentSize = 1 << 30

    init(log: EventLog.Configuration) {
        self.log = log
    }

    /// The bytes of the line at `position`, `length` bytes long without its newline, checked to be a whole line.
    ///
    /// - Parameter activeSegment: The segment of the log's active file, as far as the caller knows; a line of it that
    ///   is not found in the active file is looked for in a rotated file, as when the file rotated meanwhile.
    mutating func line(at position: LogPosition, length: Int, activeSegment: Int) throws(Failure) -> Data {
        if let line = cachedLine(at: position, length: length) { return line }
        if position.segment >= activeSegment, let line = activeLine(at: position.offset, length: length) {
            return line
        }
        cached = (position.segment, try rotatedSegment(position.segment))
        guard let line = cachedLine(at: position, length: length) else {
            throw .unreadable("no whole line of \(length) bytes at \(position.offset) in segment \(position.segment)")
        }
        return line
    }

    /// Every whole line of `segment` from `offset` on, with its position; the active file's when `segment` is the
    /// active one.
    mutating func lines(of segment: Int, from offset: Int, isActive: Bool) throws(Failure) -> [(LogPosition, Data)] {
        let bytes: Data
        if isActive {
            do {
                bytes = try Data(contentsOf: log.activeFile)
            } catch {
                throw .unreadable("\(log.activeFile.path): \(error.localizedDescription)")
            }
        } else {
            bytes = try rotatedSegment(segment)
        }
        cached = (segment, bytes)
        var lines: [(LogPosition, Data)] = []
        var start = min(offset, bytes.count)
        while let newline = bytes[start...].firstIndex(of: EventLog.newline) {
            if newline > start { lines.append((LogPosition(segment: segment, offset: start), bytes[start..<newline])) }
            start = newline + 1
        }
        return lines
    }

    /// The line at `position` in the cached segment, when it holds it whole: it starts a line, starts an object and
    /// ends with a newline.
    private func cachedLine(at position: LogPosition, length: Int) -> Data? {
        guard let cached, cached.segment == position.segment else { return nil }
        let start = cached.bytes.startIndex + position.offset
        let end = start + length
        guard start >= cached.bytes.startIndex, end < cached.bytes.endIndex,
            cached.bytes[end] == EventLog.newline, cached.bytes[start] == UInt8(ascii: "{"),
            start == cached.bytes.startIndex || cached.bytes[start - 1] == EventLog.newline
        else { return nil }
        return cached.bytes[start..<end]
    }

    /// The line at `offset` in the active file, read alone (with the bytes around it that show it is a whole line), so
    /// that sending a backlog never holds the whole active file.
    private func activeLine(at offset: Int, length: Int) -> Data? {
        let descriptor = open(log.activeFile.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        let start = max(0, offset - 1)
        let count = offset + length + 1 - start
        var bytes = Data(count: count)
        let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(start)) }
        guard read == count, bytes[bytes.startIndex + offset - start] == UInt8(ascii: "{"),
            bytes.last == EventLog.newline, offset == 0 || bytes.first == EventLog.newline
        else { return nil }
        return bytes[(bytes.startIndex + offset - start)..<(bytes.endIndex - 1)]
    }

    /// The decompressed lines of the rotated file numbered `segment`.
    private func rotatedSegment(_ segment: Int) throws(Failure) -> Data {
        let files = (try? EventLog.rotatedFiles(in: log.directory, logName: log.fileName)) ?? []
        guard let file = EventLog.readable(files).first(where: { $0.rotation.sequence == segment }) else {
            throw .evicted
        }
        do {
            let bytes = try Data(contentsOf: file.url)
            return file.stage == .compressed ? try Gzip.decompress(bytes, maximumSize: Self.maximumSegmentSize) : bytes
        } catch {
            throw .unreadable("\(file.url.path): \(error)")
        }
    }
}
