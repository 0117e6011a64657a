import Foundation

/// Reads lines of an ``EventLog`` back by their positions: from the active file, or from the rotated file of their
/// segment, decompressed as a stream. The rotated file last read stays open where it was read, so a backlog sent
/// oldest first decompresses each file once, a piece at a time.
package struct LogSegmentReader {
    /// Why a line could not be read.
    package enum Failure: Error {
        /// Its segment is no longer in the log: the size cap evicted it.
        case evicted
        /// Its bytes are not a whole line where it was said to be.
        case unreadable(String)
    }

    let log: EventLog.Configuration
    /// The rotated file read last, positioned after the last line read from it.
    private var stream: SegmentStream?

    package init(log: EventLog.Configuration) {
        self.log = log
    }

    /// The bytes of the line at `position`, `length` bytes long without its newline, checked to be a whole line.
    ///
    /// - Parameter activeSegment: The segment of the log's active file, as far as the caller knows; a line of it that
    ///   is not found in the active file is looked for in a rotated file, as when the file rotated meanwhile.
    package mutating func line(at position: LogPosition, length: Int, activeSegment: Int) throws(Failure) -> Data {
        if position.segment >= activeSegment, let line = activeLine(at: position.offset, length: length) {
            return line
        }
        let stream: SegmentStream
        if let current = self.stream, current.segment == position.segment, current.canRead(lineAt: position.offset) {
            stream = current
        } else {
            // A line before the window, as after a failed send, starts the file over.
            self.stream = nil
            stream = try Self.stream(of: try rotatedFile(position.segment), segment: position.segment)
            self.stream = stream
        }
        let line: Data?
        do {
            line = try stream.line(at: position.offset, length: length)
        } catch {
            throw .unreadable(error.reason)
        }
        guard let line else {
            throw .unreadable("no whole line of \(length) bytes at \(position.offset) in segment \(position.segment)")
        }
        return line
    }

    /// Hands each whole line of `segment` from `offset` on to `body`, with its position, until the segment ends or
    /// `body` returns `false`: the active file's lines when `segment` is the active one. The file is read as a
    /// stream.
    package func forEachLine(
        of segment: Int, from offset: Int, isActive: Bool, _ body: (LogPosition, Data) -> Bool
    ) throws(Failure) {
        let file = isActive ? (url: log.activeFile, isCompressed: false) : try rotatedFile(segment)
        let stream = try Self.stream(of: file, segment: segment)
        do {
            try stream.forEachLine(from: offset) { body(LogPosition(segment: segment, offset: $0), $1) }
        } catch {
            throw .unreadable(error.reason)
        }
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

    /// The rotated file numbered `segment`, and whether it is compressed.
    private func rotatedFile(_ segment: Int) throws(Failure) -> (url: URL, isCompressed: Bool) {
        let files = (try? EventLog.rotatedFiles(in: log.directory, logName: log.fileName)) ?? []
        guard let file = EventLog.readable(files).first(where: { $0.rotation.sequence == segment }) else {
            throw .evicted
        }
        return (file.url, file.stage == .compressed)
    }

    private static func stream(of file: (url: URL, isCompressed: Bool), segment: Int) throws(Failure) -> SegmentStream {
        do {
            return try SegmentStream(file: file.url, segment: segment, isCompressed: file.isCompressed)
        } catch {
            throw .unreadable(error.reason)
        }
    }
}
