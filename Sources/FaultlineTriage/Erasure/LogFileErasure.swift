import FaultlineRecords
import Foundation

/// Erases lines of an event log's file, plain or gzip, by blanking them: each line a predicate selects is replaced by
/// spaces of the same length, so that every other line keeps its bytes and its offset. Offsets are what a reporter's
/// delivery cursor and `faultline tail --follow` hold, and a blank line is skipped by every reader and never sent.
///
/// The file is read as a stream, once to count and, when a line is selected, once more to rewrite it through an
/// ``AtomicRewrite``: a file with no selected line is left as it was, byte for byte, and a rewritten one is whole
/// before or after, whatever crash. A gzip file is written back as one gzip member at zlib's default level.
package enum LogFileErasure {
    /// Why a file could not be erased from.
    package struct Failure: Error, CustomStringConvertible {
        package let file: URL
        package let reason: String

        package var description: String { "\(file.path): \(reason)" }
    }

    /// Blanks each whole line of the file at `url` that `isErased` selects; with `dryRun`, only counts them.
    ///
    /// - Parameters:
    ///   - isCompressed: Whether the file is gzip (`.jsonl.gz`).
    ///   - isErased: Whether a line (without its newline) is to be erased; blank lines (empty, or blanked before: they
    ///     start and end with a space) are not asked about, nor a last line without a newline (one a crash cut
    ///     short).
    /// - Returns: How many lines were (or, with `dryRun`, would be) blanked.
    /// - Throws: ``Failure`` when the file cannot be read whole (corrupt or truncated gzip) or rewritten; it is left as
    ///   it was then.
    package static func blankLines(
        in url: URL, isCompressed: Bool, dryRun: Bool = false,
        where isErased: (UnsafeBufferPointer<UInt8>) -> Bool
    ) throws(Failure) -> Int {
        do {
            let count = try stream(url, isCompressed: isCompressed, isErased: isErased, into: nil)
            guard count > 0, !dryRun else { return count }
            let rewrite = try AtomicRewrite(replacing: url)
            _ = try stream(url, isCompressed: isCompressed, isErased: isErased, into: rewrite)
            try rewrite.commit()
            return count
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(file: url, reason: "\(error)")
        }
    }

    /// Removes the temporary files of rewrites a crash interrupted in `directory`: the files they were rewriting were
    /// left as they were.
    package static func removeLeftovers(in directory: URL) {
        AtomicRewrite.removeLeftovers(in: directory)
    }

    /// Reads the file's lines, counting those `isErased` selects and writing the file with them blanked to `rewrite`
    /// when there is one.
    private static func stream(
        _ url: URL, isCompressed: Bool, isErased: (UnsafeBufferPointer<UInt8>) -> Bool, into rewrite: AtomicRewrite?
    ) throws -> Int {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var lines = BlankingLines()
        let output = rewrite.map { RewriteOutput(rewrite: $0, isCompressed: isCompressed) }
        var gzip = GzipStream()
        while let chunk = try handle.read(upToCount: Gzip.chunkSize), !chunk.isEmpty {
            var blanked: [UInt8] = []
            let failure = chunk.withUnsafeBytes { (input: UnsafeRawBufferPointer) -> GzipError? in
                guard isCompressed else {
                    lines.take(input, into: &blanked, isErased: isErased)
                    return nil
                }
                return gzip.decompress(input, isEnd: false) { lines.take($0, into: &blanked, isErased: isErased) }
            }
            if let failure { throw Failure(file: url, reason: "\(failure)") }
            try blanked.withUnsafeBytes { try output?.emit($0) }
        }
        if isCompressed,
            let failure = gzip.decompress(UnsafeRawBufferPointer(start: nil, count: 0), isEnd: true, into: { _ in })
        {
            throw Failure(file: url, reason: "\(failure)")
        }
        try lines.rest.withUnsafeBytes { try output?.emit($0, finish: true) }
        return lines.erased
    }
}

/// Where a rewrite's bytes go: to the temporary file, through a gzip member when the file is compressed.
private final class RewriteOutput {
    let rewrite: AtomicRewrite
    let isCompressed: Bool
    let deflater = Deflater(level: 6)

    init(rewrite: AtomicRewrite, isCompressed: Bool) {
        self.rewrite = rewrite
        self.isCompressed = isCompressed
    }

    /// Writes `bytes`; with `finish`, ends the gzip member after them.
    func emit(_ bytes: UnsafeRawBufferPointer, finish: Bool = false) throws {
        guard isCompressed else { return try rewrite.append(bytes) }
        try deflater.compress(bytes, finish: finish) { try rewrite.append($0) }
    }
}

/// Splits bytes that arrive in pieces into lines, and hands each on as it is or blanked.
private struct BlankingLines {
    /// The start of a line whose newline has not arrived yet.
    private(set) var rest: [UInt8] = []
    private(set) var erased = 0

    /// Takes the next piece, appending each line it ends (with its newline) to `output`, blanked when `isErased`
    /// selects it.
    mutating func take(
        _ piece: UnsafeRawBufferPointer, into output: inout [UInt8], isErased: (UnsafeBufferPointer<UInt8>) -> Bool
    ) {
        guard let base = piece.baseAddress else { return }
        var start = 0
        while start < piece.count {
            guard let found = memchr(base + start, Int32(EventLog.newline), piece.count - start) else {
                rest.append(contentsOf: UnsafeRawBufferPointer(rebasing: piece[start...]))
                return
            }
            let end = base.distance(to: UnsafeRawPointer(found))
            let ending = UnsafeRawBufferPointer(rebasing: piece[start..<end])
            if rest.isEmpty {
                hand(ending.bindMemory(to: UInt8.self), into: &output, isErased: isErased)
            } else {
                rest.append(contentsOf: ending)
                rest.withUnsafeBufferPointer { hand($0, into: &output, isErased: isErased) }
                rest.removeAll(keepingCapacity: true)
            }
            start = end + 1
        }
    }

    /// Appends `line` and a newline to `output`, blanked when it is not blank already and `isErased` selects it.
    private mutating func hand(
        _ line: UnsafeBufferPointer<UInt8>, into output: inout [UInt8], isErased: (UnsafeBufferPointer<UInt8>) -> Bool
    ) {
        let space = UInt8(ascii: " ")
        let isBlank = line.isEmpty || (line.first == space && line.last == space)
        if !isBlank, isErased(line) {
            erased += 1
            output.append(contentsOf: repeatElement(space, count: line.count))
        } else {
            output.append(contentsOf: line)
        }
        output.append(EventLog.newline)
    }
}
