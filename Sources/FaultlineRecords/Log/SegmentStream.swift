import Foundation

/// One file of the log read from its start, decompressed a piece at a time when it is gzip, through a window of bytes
/// that only moves forward: lines read in the order they were written decompress the file once, and memory holds a
/// piece of the file (and the line being read), never the whole file.
package final class SegmentStream {
    /// Why the file could not be read.
    struct Failure: Error {
        let reason: String
    }

    /// The segment the file holds.
    let segment: Int
    private let file: URL
    private let handle: FileHandle
    private let isCompressed: Bool
    private var gzip = GzipStream()
    /// The file's bytes (decompressed) from ``windowStart`` on, in one buffer reused as the window moves.
    private var window: [UInt8] = []
    /// Where in the file the window starts.
    private(set) var windowStart = 0
    private var isAtEnd = false

    /// The size of the pieces read from the file: 4 KiB, about 40 KiB of JSON lines once decompressed.
    static let readSize = 4 * 1024

    init(file: URL, segment: Int, isCompressed: Bool) throws(Failure) {
        do {
            handle = try FileHandle(forReadingFrom: file)
        } catch {
            throw Failure(reason: "\(file.path): \(error.localizedDescription)")
        }
        self.file = file
        self.segment = segment
        self.isCompressed = isCompressed
    }

    deinit {
        try? handle.close()
    }

    /// Whether the line at `offset` can be read without starting the file over: the window has not moved past it
    /// (nor past the byte before it, which shows that a line starts there).
    func canRead(lineAt offset: Int) -> Bool {
        offset == 0 ? windowStart == 0 : offset - 1 >= windowStart
    }

    /// The line at `offset`, `length` bytes long without its newline, when it is a whole line there: it starts the file
    /// or follows a newline, starts an object, and ends with a newline. The window moves to it.
    func line(at offset: Int, length: Int) throws(Failure) -> Data? {
        precondition(canRead(lineAt: offset), "the window moved past the line")
        guard try moveWindow(to: max(0, offset - 1)), try fill(through: offset + length) else { return nil }
        let start = offset - windowStart
        let newline = start + length
        guard window[start] == UInt8(ascii: "{"), window[newline] == EventLog.newline,
            offset == 0 || window[start - 1] == EventLog.newline
        else { return nil }
        return Data(window[start..<newline])
    }

    /// Hands each whole line from `offset` on to `body`, with where it starts, until the file ends or `body` returns
    /// `false`; empty lines are skipped, and a last line without its newline is not a whole line.
    func forEachLine(from offset: Int, _ body: (Int, Data) -> Bool) throws(Failure) {
        var start = offset
        guard try moveWindow(to: start) else { return }
        var searched = start
        while true {
            guard let newline = window[(searched - windowStart)...].firstIndex(of: EventLog.newline)
            else {
                searched = windowStart + window.count
                guard try fill(through: searched) else { return }
                continue
            }
            let end = windowStart + newline
            if end > start {
                let line = Data(window[(start - windowStart)..<newline])
                guard body(start, line) else { return }
            }
            start = end + 1
            searched = start
            guard try moveWindow(to: start) else { return }
        }
    }

    /// Moves the window's start towards `offset`, reading on when `offset` lies past the window; returns `false`
    /// when the file ends before it. The bytes before `offset` are dropped once they are a piece's worth and half the
    /// window, so that reading line after line copies each byte of the window about once.
    private func moveWindow(to offset: Int) throws(Failure) -> Bool {
        while windowStart + window.count < offset {
            drop(window.count)
            guard try readPiece() else { return false }
        }
        if offset - windowStart >= max(Self.readSize, window.count / 2) { drop(offset - windowStart) }
        return true
    }

    /// Drops the first `count` bytes of the window, moving the rest to the front of its buffer.
    private func drop(_ count: Int) {
        window.removeFirst(count)
        windowStart += count
    }

    /// Reads on until the window holds the byte at `offset`; returns `false` when the file ends first.
    private func fill(through offset: Int) throws(Failure) -> Bool {
        while windowStart + window.count <= offset {
            guard try readPiece() else { return false }
        }
        return true
    }

    /// Reads the next piece of the file into the window, decompressed; returns `false` at the end of the file.
    private func readPiece() throws(Failure) -> Bool {
        guard !isAtEnd else { return false }
        let piece: Data
        do {
            piece = try handle.read(upToCount: Self.readSize) ?? Data()
        } catch {
            throw Failure(reason: "\(file.path): \(error.localizedDescription)")
        }
        isAtEnd = piece.isEmpty
        guard isCompressed else {
            window.append(contentsOf: piece)
            return !isAtEnd
        }
        let failure = piece.withUnsafeBytes { input in
            gzip.decompress(input, isEnd: isAtEnd) { window.append(contentsOf: $0) }
        }
        if let failure { throw Failure(reason: "\(file.path): \(failure)") }
        return true
    }
}
