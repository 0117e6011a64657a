import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// Gzip compression with the system zlib: whole buffers in memory, and files streamed in 64 KiB pieces.
package enum Gzip {
    /// The size of the pieces data is read, compressed and decompressed in: 64 KiB.
    package static let chunkSize = 64 * 1024

    /// Compresses `data` into one gzip member that `gzip -d` reads.
    ///
    /// - Parameters:
    ///   - data: The bytes to compress.
    ///   - level: 0 (stored) to 9 (smallest); 6 by default, zlib's and gzip's default.
    package static func compress(_ data: Data, level: Int32 = 6) -> Data {
        compress(data, with: Deflater(level: level))
    }

    /// Compresses `data` into one gzip member with `deflater`, which is then ready for the next.
    package static func compress(_ data: Data, with deflater: borrowing Deflater) -> Data {
        var compressed = Data()
        data.withUnsafeBytes { input in
            deflater.compress(input, finish: true) { compressed.append(contentsOf: $0) }
        }
        return compressed
    }

    /// Decompresses gzip data, reading every member of concatenated gzip data as `gzip -dc` does.
    ///
    /// Decompression stops as soon as the output passes `maximumSize`, so a small input that inflates to gigabytes
    /// (a gzip bomb) is refused after inflating `maximumSize` bytes, not all of it. Data after the last member,
    /// even zeros, is an error.
    ///
    /// - Parameters:
    ///   - data: One or more gzip members.
    ///   - maximumSize: The most bytes the decompressed data may have.
    /// - Throws: ``GzipError/truncated`` when the data ends early, ``GzipError/corrupt(_:)`` when it is not valid
    ///   gzip, ``GzipError/tooLarge(limit:)`` past `maximumSize`.
    package static func decompress(_ data: Data, maximumSize: Int) throws(GzipError) -> Data {
        let inflater = Inflater()
        return try data.withUnsafeBytes { inflater.decompress($0, maximumSize: maximumSize) }.get()
    }

    /// Compresses the file at `source` into a gzip file at `destination`, reading and compressing 64 KiB at a time,
    /// so memory stays bounded whatever the file's size.
    ///
    /// The gzip data is written to `destination` with a `.tmp` suffix, flushed to disk, then renamed to
    /// `destination` (replacing any file there): `destination` appears complete or not at all, with the permissions
    /// of `source`. On failure, the temporary file is removed and `source` is left as it was.
    static func compressFile(at source: URL, to destination: URL, level: Int32) throws {
        let temporary = destination.appendingPathExtension("tmp")
        let reader = try FileHandle(forReadingFrom: source)
        defer { try? reader.close() }
        let permissions = try FileManager.default.attributesOfItem(atPath: source.path)[.posixPermissions]
        let attributes = permissions.map { [FileAttributeKey.posixPermissions: $0] }
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil, attributes: attributes) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
        }
        do {
            let writer = try FileHandle(forWritingTo: temporary)
            defer { try? writer.close() }
            let deflater = Deflater(level: level)
            while let chunk = try reader.read(upToCount: chunkSize), !chunk.isEmpty {
                try chunk.withUnsafeBytes { input in
                    try deflater.compress(input, finish: false) { try writer.write(contentsOf: $0) }
                }
            }
            try deflater.compress(UnsafeRawBufferPointer(start: nil, count: 0), finish: true) {
                try writer.write(contentsOf: $0)
            }
            try writer.synchronize()
            guard rename(temporary.path, destination.path) == 0 else {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }
}

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
