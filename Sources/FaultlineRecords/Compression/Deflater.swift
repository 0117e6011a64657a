import CFaultlineZlib

/// A zlib deflate stream that writes gzip members from input fed in pieces, one member after another: once `finish`
/// ends one, the next input starts the next, reusing the stream's memory (about 256 KiB that zlib would otherwise
/// allocate and clear for every member).
///
/// The `z_stream` is allocated once, at a fixed address, because zlib keeps a pointer back to it; the stream and its
/// output buffer are freed when the deflater goes away.
package struct Deflater: ~Copyable {
    private let stream: UnsafeMutablePointer<z_stream>
    private let buffer: UnsafeMutableBufferPointer<Bytef>

    /// Starts a gzip member compressed at `level`: 0 (stored) to 9 (smallest), or -1 for zlib's default, 6.
    package init(level: Int32) {
        precondition((-1...9).contains(level), "The gzip compression level must be within -1...9, not \(level).")
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        buffer = .allocate(capacity: Gzip.chunkSize)
        let windowBitsWithGzipWrapper: Int32 = 31
        let status = deflateInit2_(
            stream, level, Z_DEFLATED, windowBitsWithGzipWrapper, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
            Int32(MemoryLayout<z_stream>.size))
        precondition(status == Z_OK, "zlib could not start a deflate stream (status \(status)): out of memory.")
    }

    deinit {
        deflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
        buffer.deallocate()
    }

    /// Compresses `input` and hands the compressed bytes to `output`, in pieces of at most ``Gzip/chunkSize``
    /// bytes. With `finish`, the member ends after `input`: the rest of the compressed data and the gzip trailer
    /// are written, and the deflater is ready for the next member.
    package func compress(
        _ input: UnsafeRawBufferPointer, finish: Bool, output: (UnsafeRawBufferPointer) throws -> Void
    ) rethrows {
        var offset = 0
        repeat {
            let count = min(input.count - offset, Int(UInt32.max))
            stream.pointee.next_in = input.baseAddress.map {
                UnsafeMutablePointer(mutating: ($0 + offset).assumingMemoryBound(to: Bytef.self))
            }
            stream.pointee.avail_in = UInt32(count)
            offset += count
            let flush = finish && offset == input.count ? Z_FINISH : Z_NO_FLUSH
            repeat {
                stream.pointee.next_out = buffer.baseAddress
                stream.pointee.avail_out = UInt32(buffer.count)
                let status = deflate(stream, flush)
                precondition(status != Z_STREAM_ERROR, "zlib's deflate stream is in an inconsistent state.")
                let produced = buffer.count - Int(stream.pointee.avail_out)
                if produced > 0 { try output(UnsafeRawBufferPointer(start: buffer.baseAddress, count: produced)) }
            } while stream.pointee.avail_out == 0
        } while offset < input.count
        if finish { deflateReset(stream) }
    }
}
