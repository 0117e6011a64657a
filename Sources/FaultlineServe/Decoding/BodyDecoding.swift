import FaultlineRecords
import Foundation

/// Why a request body could not be decoded.
package enum BodyDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The `Content-Encoding` is not one the ingest reads.
    case unsupportedEncoding(String)
    /// The compressed data is not valid.
    case corrupt(String)
    /// Decompressed, it would be larger than the limit: a gzip bomb is refused, not inflated.
    case tooLarge(limit: Int)

    package var description: String {
        switch self {
        case .unsupportedEncoding(let encoding): "unsupported Content-Encoding \(encoding): use gzip, deflate or br"
        case .corrupt(let detail): "the body could not be decompressed: \(detail)"
        case .tooLarge(let limit): "the decompressed body is larger than \(limit) bytes"
        }
    }
}

/// Request bodies as they arrive, `identity`, `gzip`, `deflate` (zlib) or `br`, decompressed up to a limit.
package enum BodyDecoding {
    /// The body of a request with `Content-Encoding: encoding` (`nil` for none), decompressed to at most `maximumSize`
    /// bytes.
    package static func decode(_ body: Data, encoding: String?, maximumSize: Int) throws(BodyDecodingError) -> Data {
        switch encoding?.trimmingCharacters(in: .whitespaces).lowercased() {
        case nil, "", "identity":
            guard body.count <= maximumSize else { throw .tooLarge(limit: maximumSize) }
            return body
        case "gzip", "x-gzip", "deflate":
            do throws(GzipError) {
                return try Gzip.decompress(body, maximumSize: maximumSize)
            } catch {
                switch error {
                case .tooLarge(let limit): throw .tooLarge(limit: limit)
                case .truncated: throw .corrupt("the compressed data is cut short")
                case .corrupt(let detail): throw .corrupt(detail)
                }
            }
        case "br": return try Brotli.decompress(body, maximumSize: maximumSize)
        case let other?: throw .unsupportedEncoding(other)
        }
    }
}
