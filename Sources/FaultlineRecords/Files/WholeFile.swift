import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// Writes a file's whole contents with `open(2)`, `pwrite(2)` and `ftruncate(2)`, without the path checks and stats of
/// `Data.write(to:)`.
package enum WholeFile {
    /// Makes the file at `path` hold exactly `bytes`: creates it readable and writable by its owner only, or, when it
    /// is there, writes over it from the start and cuts it to length.
    ///
    /// Writing over a file that is there is what makes recycling files cheap. On an ext4 without a journal, creating
    /// a file right after others were deleted scans for a free inode that was not recently deleted, and cutting a
    /// file to zero frees its blocks (with `discard`, trimming them); either costs several times the write.
    package static func write(_ bytes: Data, to path: String) throws(POSIXError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw lastError() }
        defer { close(descriptor) }
        let written = bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = pwrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset, off_t(offset))
                if count < 0, errno != EINTR { break }
                offset += max(count, 0)
            }
            return offset
        }
        guard written == bytes.count else { throw lastError() }
        guard ftruncate(descriptor, off_t(bytes.count)) == 0 else { throw lastError() }
    }

    private static func lastError() -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
}
