import CFaultlineZlib
import Foundation

/// A zlib inflate stream that reads gzip (or zlib) data, one member after another, into memory up to a limit.
///
/// The `z_stream` is allocated once, at a fixed address, because zlib keeps a pointer back to it; the stream and its
/// output buffer are freed when the inflater goes away.
package struct Inflater: ~Copyable {
    private let stream: UnsafeMutablePointer<z_stream>
    private let buffer: UnsafeMutableBufferPointer<Bytef>

    init() {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        buffer = .allocate(capacity: Gzip.chunkSize)
        let windowBitsDetectingGzipOrZlib: Int32 = 47
        let status = inflateInit2_(
            stream, windowBitsDetectingGzipOrZlib, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        precondition(status == Z_OK, "zlib could not start an inflate stream (status \(status)): out of memory.")
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
        buffer.deallocate()
    }

    /// Decompresses every member of `input`, which must end exactly where its last member ends.
    ///
    /// Output is checked against `maximumSize` after each piece of at most ``Gzip/chunkSize`` bytes, so no more than
    /// `maximumSize` bytes are ever kept.
    func decompress(_ input: UnsafeRawBufferPointer, maximumSize: Int) -> Result<Data, GzipError> {
        var output = Data()
        var isTooLarge = false
        let result = decompress(piece: input) { piece in
            guard piece.count <= maximumSize - output.count else {
                isTooLarge = true
                return false
            }
            output.append(contentsOf: piece)
            return true
        }
        if isTooLarge { return .failure(.tooLarge(limit: maximumSize)) }
        return result.flatMap { endedAtMember in endedAtMember ? .success(output) : .failure(.truncated) }
    }

    /// Starts reading a new member.
    func reset() {
        inflateReset(stream)
    }

    /// Decompresses all of `input` (which may end anywhere), handing each decompressed piece to `output`, which
    /// returns `false` to stop there.
    ///
    /// - Returns: Whether the input ended exactly at the end of a member, or why it is not gzip.
    func decompress(piece input: UnsafeRawBufferPointer, into output: (UnsafeRawBufferPointer) -> Bool) -> Result<
        Bool, GzipError
    > {
        guard let base = input.baseAddress, !input.isEmpty else { return .success(false) }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = UInt32(input.count)  // callers read files in chunks far below 4 GiB
        var startsMember = false
        while true {
            if startsMember {
                inflateReset(stream)
                startsMember = false
            }
            stream.pointee.next_out = buffer.baseAddress
            stream.pointee.avail_out = UInt32(buffer.count)
            let status = inflate(stream, Z_NO_FLUSH)
            let produced = buffer.count - Int(stream.pointee.avail_out)
            if produced > 0, !output(UnsafeRawBufferPointer(start: buffer.baseAddress, count: produced)) {
                return .success(false)
            }
            switch status {
            case Z_STREAM_END:
                if stream.pointee.avail_in == 0 { return .success(true) }
                startsMember = true
            case Z_OK, Z_BUF_ERROR:
                // Output that did not fit waits in zlib; otherwise this piece is used up.
                if stream.pointee.avail_out > 0, stream.pointee.avail_in == 0 { return .success(false) }
            case Z_NEED_DICT:
                return .failure(.corrupt("zlib data that needs a preset dictionary"))
            case Z_DATA_ERROR:
                return .failure(.corrupt(stream.pointee.msg.map { String(cString: $0) } ?? "invalid data"))
            default:
                preconditionFailure("zlib's inflate failed with status \(status): out of memory or inconsistent.")
            }
        }
    }
}
