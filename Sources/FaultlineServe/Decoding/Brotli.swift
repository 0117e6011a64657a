import CFaultlineBrotli
import Foundation

/// Brotli decompression with the system's libbrotlidec: what sentry-python sends (`Content-Encoding: br`) whenever
/// the `brotli` module is importable.
package enum Brotli {
    /// Decompresses `data`, refusing to produce more than `maximumSize` bytes.
    package static func decompress(_ data: Data, maximumSize: Int) throws(BodyDecodingError) -> Data {
        guard let decoder = BrotliDecoderCreateInstance(nil, nil, nil) else { throw .corrupt("brotli: out of memory") }
        defer { BrotliDecoderDestroyInstance(decoder) }
        var output = Data()
        let chunk = UnsafeMutablePointer<UInt8>.allocate(capacity: 64 * 1024)
        defer { chunk.deallocate() }
        let result = data.withUnsafeBytes { (input: UnsafeRawBufferPointer) -> Result<Data, BodyDecodingError> in
            var availableIn = input.count
            var nextIn = input.baseAddress?.assumingMemoryBound(to: UInt8.self)
            while true {
                var availableOut = 64 * 1024
                var nextOut: UnsafeMutablePointer<UInt8>? = chunk
                let result = BrotliDecoderDecompressStream(
                    decoder, &availableIn, &nextIn, &availableOut, &nextOut, nil)
                let produced = 64 * 1024 - availableOut
                guard output.count + produced <= maximumSize else { return .failure(.tooLarge(limit: maximumSize)) }
                output.append(chunk, count: produced)
                switch result {
                case BROTLI_DECODER_RESULT_SUCCESS:
                    guard availableIn == 0 else {
                        return .failure(.corrupt("brotli: data after the end of the stream"))
                    }
                    return .success(output)
                case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT: continue
                case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT:
                    return .failure(.corrupt("brotli: the stream is cut short"))
                default:
                    let code = BrotliDecoderGetErrorCode(decoder)
                    return .failure(.corrupt("brotli: \(String(cString: BrotliDecoderErrorString(code)))"))
                }
            }
        }
        return try result.get()
    }
}
