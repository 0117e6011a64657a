import FaultlineReporting
import Foundation

/// Reads events from log files, streaming: a file is read a megabyte at a time, so memory stays bounded by the
/// longest line, whatever the size of the logs. Nothing in a file is fatal: what cannot be read is counted in
/// ``counts`` and skipped.
public struct LogReader {
    /// The size of the pieces files are read in.
    static let chunkSize = 1 << 20

    /// What was read and skipped so far.
    public private(set) var counts = ReadCounts()

    public init() {}

    /// Reads every event of `file`, in the order the file holds them.
    public mutating func read(_ file: LogFile, _ event: (EventRecord) -> Void) {
        read(file) { record, _ in event(record) }
    }

    /// Reads every event of `file` with the JSON line it was read from, for a caller that decodes some in full.
    public mutating func read(_ file: LogFile, _ event: (EventRecord, UnsafeBufferPointer<UInt8>) -> Void) {
        switch file.kind {
        case .log: readLines(of: file.url, gzip: false, event)
        case .rotatedLog: readLines(of: file.url, gzip: true, event)
        case .envelope: readEnvelope(file.url, event)
        }
    }

    private mutating func readLines(
        of url: URL, gzip: Bool, _ event: (EventRecord, UnsafeBufferPointer<UInt8>) -> Void
    ) {
        var splitter = LineSplitter()
        var gzipStream = GzipStream()
        var gzipFailure: GzipError?
        let readable = Self.chunks(of: url) { chunk, isEnd in
            counts.bytes += chunk.count
            if gzip {
                gzipFailure = gzipStream.decompress(chunk, isEnd: isEnd) { piece in
                    splitter.split(piece) { record($0, event) }
                }
            } else {
                splitter.split(chunk) { record($0, event) }
            }
        }
        guard readable else {
            counts.unreadableFiles += 1
            return
        }
        counts.files += 1
        splitter.finish { record($0, event) }
        counts.tooLong += splitter.longLines
        switch gzipFailure {
        case .truncated?: counts.truncatedGzip += 1
        case .corrupt?, .tooLarge?: counts.corruptGzip += 1
        case nil: break
        }
    }

    private mutating func readEnvelope(_ url: URL, _ event: (EventRecord, UnsafeBufferPointer<UInt8>) -> Void) {
        guard let data = try? Data(contentsOf: url) else {
            counts.unreadableFiles += 1
            return
        }
        counts.files += 1
        counts.bytes += data.count
        guard let envelope = try? Envelope(parsing: data) else {
            counts.unreadableEnvelopes += 1
            return
        }
        for item in envelope.items where item.type == "event" {
            [UInt8](item.payload).withUnsafeBufferPointer { record($0, event) }
        }
    }

    /// Reads one line: an event, a blank line (ignored) or a line counted as skipped.
    mutating func record(
        _ line: UnsafeBufferPointer<UInt8>, _ event: (EventRecord, UnsafeBufferPointer<UInt8>) -> Void
    ) {
        guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return }
        counts.lines += 1
        do throws(EventRecord.LineFailure) {
            event(try EventRecord(line: line), line)
            counts.events += 1
        } catch {
            switch error {
            case .notUTF8: counts.notUTF8 += 1
            case .notJSON: counts.notJSON += 1
            case .notAnEvent: counts.notAnEvent += 1
            }
        }
    }

    /// Reads the file at `url` a chunk at a time into one reused buffer; `false` when it cannot be opened or read.
    private static func chunks(
        of url: URL, _ body: (UnsafeRawBufferPointer, _ isEnd: Bool) -> Void
    ) -> Bool {
        let descriptor = open(url.path, O_RDONLY)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = Foundation.read(descriptor, buffer.baseAddress, chunkSize)
            guard count >= 0 else { return false }
            body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), count == 0)
            if count == 0 { return true }
        }
    }
}
