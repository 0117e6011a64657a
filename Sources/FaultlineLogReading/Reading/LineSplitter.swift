import Foundation

/// Cuts a stream of bytes into lines, however the stream is chunked: a line split across chunks is joined, and a
/// line longer than ``maximumLength`` is dropped and counted instead of held in memory.
struct LineSplitter {
    /// The longest line kept: 16 MiB, far above any event the pipeline writes (a request body is cut at 8 KiB).
    static let maximumLength = 16 * 1024 * 1024

    private var partial: [UInt8] = []
    private var isSkippingLongLine = false
    /// Lines dropped for their length.
    private(set) var longLines = 0

    /// Hands each complete line in `chunk` (without its `\n`) to `line`, keeping what follows the last `\n`.
    mutating func split(_ chunk: UnsafeRawBufferPointer, _ line: (UnsafeBufferPointer<UInt8>) -> Void) {
        let bytes = chunk.bindMemory(to: UInt8.self)
        guard let base = bytes.baseAddress else { return }
        var start = 0
        while start < bytes.count {
            guard let found = memchr(base + start, 0x0A, bytes.count - start) else {
                keep(UnsafeBufferPointer(rebasing: bytes[start...]))
                return
            }
            let newline = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
            let piece = UnsafeBufferPointer(rebasing: bytes[start..<newline])
            if isSkippingLongLine {
                isSkippingLongLine = false  // the end of a line already dropped
            } else if partial.isEmpty {
                if piece.count > Self.maximumLength { longLines += 1 } else { line(piece) }
            } else {
                keep(piece)
                if !isSkippingLongLine { partial.withUnsafeBufferPointer(line) }
                isSkippingLongLine = false
            }
            partial.removeAll(keepingCapacity: true)
            start = newline + 1
        }
    }

    /// Hands a last line that has no `\n` (a log cut short) to `line`.
    mutating func finish(_ line: (UnsafeBufferPointer<UInt8>) -> Void) {
        if !partial.isEmpty, !isSkippingLongLine { partial.withUnsafeBufferPointer(line) }
        partial.removeAll()
        isSkippingLongLine = false
    }

    private mutating func keep(_ piece: UnsafeBufferPointer<UInt8>) {
        guard !isSkippingLongLine else { return }
        if partial.count + piece.count > Self.maximumLength {
            partial.removeAll()
            isSkippingLongLine = true
            longLines += 1
        } else {
            partial.append(contentsOf: piece)
        }
    }
}
