import Foundation

/// A file's bytes handed to a closure piece by piece, so that memory stays bounded whatever the file's size.
enum FileBytes {
    /// The size of the pieces files are read in.
    static let pieceSize = 1 << 20

    /// Hands the bytes of `range` of the file at `url` (all of it when `nil`) to `body` a piece at a time through one
    /// reused buffer, then an empty piece with `isEnd`: the `errno` of the failure when the file cannot be opened or
    /// read, `nil` when it was read to the end.
    static func read(
        _ url: URL, range: Range<Int>? = nil, _ body: (UnsafeRawBufferPointer, _ isEnd: Bool) -> Void
    ) -> Int32? {
        let descriptor = open(url.path, O_RDONLY)
        guard descriptor >= 0 else { return errno }
        defer { close(descriptor) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: pieceSize, alignment: 16)
        defer { buffer.deallocate() }
        var position = range?.lowerBound ?? 0
        while true {
            let wanted = min(pieceSize, (range?.upperBound ?? Int.max) - position)
            let count =
                if wanted == 0 { 0 } else if range == nil {
                    Foundation.read(descriptor, buffer.baseAddress, wanted)  // a pipe, such as /dev/stdin, works too
                } else { pread(descriptor, buffer.baseAddress, wanted, off_t(position)) }
            guard count >= 0 else { return errno }
            position += count
            body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), count == 0)
            if count == 0 { return nil }
        }
    }

    /// The offset just past the first `\n` at or after `offset` in the file at `url`, or `nil` when none follows.
    static func lineStart(after offset: Int, in url: URL) -> Int? {
        let descriptor = open(url.path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 16)
        defer { buffer.deallocate() }
        var position = offset
        while true {
            let count = pread(descriptor, buffer.baseAddress, buffer.count, off_t(position))
            guard count > 0 else { return nil }
            if let newline = buffer[0..<count].firstIndex(of: 0x0A) { return position + newline + 1 }
            position += count
        }
    }
}
