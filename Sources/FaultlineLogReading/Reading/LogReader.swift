import FaultlineRecords
import Foundation

/// Reads events from log files, streaming: a file is read a megabyte at a time, so memory stays bounded by the
/// longest line, whatever the size of the logs. Nothing in a file
/// is fatal: what cannot be read is counted in ``counts`` and skipped.
package struct LogReader {
    /// What was read and skipped so far.
    package private(set) var counts = ReadCounts()
    /// The files that could not be opened or read, and why.
    package private(set) var unreadableFiles: [UnreadableFile] = []

    package init() {}

    /// Reads every event of `file`, in the order the file holds them.
    package mutating func read(_ file: LogFile, _ event: (EventRecord) -> Void) {
        read(file) { record, _ in event(record) }
    }

    /// Reads every event of `file` with the JSON line it was read from, for a caller that decodes some in full.
    package mutating func read(_ file: LogFile, _ event: (EventRecord, UnsafeBufferPointer<UInt8>) -> Void) {
        read(LogPiece(file), event)
    }

    /// Reads every event of `piece`, in order.
    package mutating func read(_ piece: LogPiece, _ event: (EventRecord, UnsafeBufferPointer<UInt8>) -> Void) {
        switch piece.file.kind {
        case .log: withoutActuallyEscaping(event) { readLines(of: piece, .events($0)) }
        case .rotatedLog: withoutActuallyEscaping(event) { readCompressedLines(of: piece.file.url, .events($0)) }
        case .envelope: readEnvelope(piece.file.url, event)
        }
    }

    /// Hands every line of `piece`, of a plain or rotated log, to `line`, counting its file (once, with the piece that
    /// begins it) and its bytes (and a gzip file that is truncated or corrupt), but not its lines: for a log whose
    /// lines are not events, such as request outcomes. An envelope has no lines.
    package mutating func readLines(of piece: LogPiece, _ line: (UnsafeBufferPointer<UInt8>) -> Void) {
        switch piece.file.kind {
        case .log: withoutActuallyEscaping(line) { readLines(of: piece, .lines($0)) }
        case .rotatedLog: withoutActuallyEscaping(line) { readCompressedLines(of: piece.file.url, .lines($0)) }
        case .envelope: break
        }
    }

    /// What a line read goes to: read as an event, or handed over as it is.
    private enum LineHandler {
        case events((EventRecord, UnsafeBufferPointer<UInt8>) -> Void)
        case lines((UnsafeBufferPointer<UInt8>) -> Void)
    }

    /// Hands `line` to `handler`.
    private mutating func handle(_ line: UnsafeBufferPointer<UInt8>, _ handler: LineHandler) {
        switch handler {
        case .events(let event): record(line, event)
        case .lines(let body): body(line)
        }
    }

    private mutating func readLines(of piece: LogPiece, _ handler: LineHandler) {
        var splitter = LineSplitter()
        let failure = FileBytes.read(piece.file.url, range: piece.range) { chunk, _ in
            counts.bytes += chunk.count
            splitter.split(chunk) { handle($0, handler) }
        }
        finish(piece.file.url, failure: failure, isFirstOfFile: piece.isFirstOfFile, splitter: &splitter, handler)
    }

    private mutating func readCompressedLines(of url: URL, _ handler: LineHandler) {
        var splitter = LineSplitter()
        var gzipStream = GzipStream()
        var gzipFailure: GzipError?
        let failure = FileBytes.read(url) { chunk, isEnd in
            counts.bytes += chunk.count
            gzipFailure = gzipStream.decompress(chunk, isEnd: isEnd) { piece in
                splitter.split(piece) { handle($0, handler) }
            }
        }
        finish(url, failure: failure, isFirstOfFile: true, splitter: &splitter, handler)
        switch gzipFailure {
        case .truncated?: counts.truncatedGzip += 1
        case .corrupt?, .tooLarge?: counts.corruptGzip += 1
        case nil: break
        }
    }

    private mutating func finish(
        _ url: URL, failure: Int32?, isFirstOfFile: Bool, splitter: inout LineSplitter, _ handler: LineHandler
    ) {
        if let failure {
            if isFirstOfFile { skip(url, failure) }
            return
        }
        if isFirstOfFile { counts.files += 1 }
        splitter.finish { handle($0, handler) }
        counts.tooLong += splitter.longLines
    }

    private mutating func readEnvelope(_ url: URL, _ event: (EventRecord, UnsafeBufferPointer<UInt8>) -> Void) {
        var data = Data()
        if let failure = FileBytes.read(url, { chunk, _ in data.append(contentsOf: chunk) }) {
            skip(url, failure)
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

    /// Counts the file at `url` as unreadable, for the `errno` `code`.
    private mutating func skip(_ url: URL, _ code: Int32) {
        counts.unreadableFiles += 1
        unreadableFiles.append(UnreadableFile(url: url, code: code))
    }

    /// Reads one line: an event, a blank line (ignored) or a line counted as skipped.
    mutating func record(
        _ line: UnsafeBufferPointer<UInt8>, _ event: (EventRecord, UnsafeBufferPointer<UInt8>) -> Void
    ) {
        guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return }
        counts.lines += 1
        do throws(EventRecord.LineFailure) {
            let record = try EventRecord(line: line)
            event(record, line)
            counts.events += 1
            counts.ignoredFields += record.ignoredFields
        } catch {
            switch error {
            case .notUTF8: counts.notUTF8 += 1
            case .notJSON: counts.notJSON += 1
            case .notAnEvent: counts.notAnEvent += 1
            }
        }
    }
}
