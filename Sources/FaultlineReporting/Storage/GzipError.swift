/// Why gzip data could not be decompressed.
package enum GzipError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The data ends before the gzip stream does: an interrupted download or a file cut short by a crash.
    case truncated
    /// The data is damaged or is not gzip; the text says where and what zlib found.
    case corrupt(String)
    /// The data decompresses to more than `limit` bytes; decompression stopped at the limit.
    case tooLarge(limit: Int)

    package var description: String {
        switch self {
        case .truncated:
            "The gzip data ends before its end-of-stream marker: it was cut short, by an interrupted download or "
                + "write. Fetch or write it again."
        case .corrupt(let detail):
            "The data is not valid gzip (\(detail)): it is damaged, or is not gzip at all. Check where it came from; "
                + "it cannot be recovered."
        case .tooLarge(let limit):
            "The gzip data decompresses to more than \(limit) bytes, the limit, so decompression stopped there. Raise "
                + "maximumSize if the data is trusted to be that large; otherwise reject it."
        }
    }
}
