import Foundation

/// A unit of reading that one core can take: a whole file, or a range of whole lines of a large plain log. A scan
/// reads its pieces in parallel and merges what they found in their order.
package struct LogPiece: Hashable, Sendable {
    package let file: LogFile
    /// The bytes of a plain log this piece covers, starting at a line start and ending after a `\n` (or at the end of
    /// the file); `nil` for the whole file.
    package let range: Range<Int>?
    /// Its size on disk, for progress.
    package let byteCount: Int

    /// The piece that is all of `file`.
    package init(_ file: LogFile) {
        self.file = file
        range = nil
        byteCount = Self.size(of: file.url) ?? 0
    }

    private init(_ file: LogFile, range: Range<Int>) {
        self.file = file
        self.range = range
        byteCount = range.count
    }

    /// Whether the piece begins its file, so that the file is counted once.
    package var isFirstOfFile: Bool { (range?.lowerBound ?? 0) == 0 }

    /// `files` cut into pieces of about `size` bytes: plain logs larger than that are cut at line boundaries,
    /// compressed logs and envelopes stay whole.
    package static func plan(_ files: [LogFile], size: Int) -> [LogPiece] {
        files.flatMap { file -> [LogPiece] in
            guard file.kind == .log, let length = Self.size(of: file.url), length > size else {
                return [LogPiece(file)]
            }
            var pieces: [LogPiece] = []
            var start = 0
            while start < length {
                let end = start + size < length ? FileBytes.lineStart(after: start + size - 1, in: file.url) : nil
                let pieceEnd = min(end ?? length, length)
                pieces.append(LogPiece(file, range: start..<pieceEnd))
                start = pieceEnd
            }
            return pieces
        }
    }

    private static func size(of url: URL) -> Int? {
        var status = stat()
        guard stat(url.path, &status) == 0 else { return nil }
        return Int(status.st_size)
    }
}
