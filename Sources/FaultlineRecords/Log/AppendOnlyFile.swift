import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// A file opened for appending (`O_APPEND`), readable and writable by its owner only: every write lands at the end
/// of the file. The descriptor is closed when the value goes away.
package struct AppendOnlyFile: ~Copyable {
    let url: URL
    private let descriptor: Int32

    /// Opens `url`, creating it when missing.
    init(opening url: URL) throws(EventLogError) {
        let descriptor = open(url.path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Self.failure("open for appending", url) }
        self.url = url
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// The file's size in bytes.
    func size() throws(EventLogError) -> Int {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Self.failure("read the size of", url) }
        return Int(status.st_size)
    }

    /// The size of the file up to and including its last newline: where a line cut short by a crash starts, or the
    /// file's size when it ends with a newline (or is empty).
    func endOfLastLine() throws(EventLogError) -> Int {
        var end = try size()
        var block = [UInt8](repeating: 0, count: 4096)
        while end > 0 {
            let start = max(0, end - block.count)
            let count = end - start
            let read = block.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(start)) }
            guard read == count else { throw Self.failure("read the end of", url) }
            if let newline = block[..<count].lastIndex(of: EventLog.newline) { return start + newline + 1 }
            end = start
        }
        return 0
    }

    /// Appends `bytes` with a single `write(2)`, so that a reader sees all of them or none of them.
    ///
    /// A write that fails or writes only part of `bytes` (a full disk) throws; the caller cuts the file back with
    /// ``truncate(to:)``.
    func append(_ bytes: Data) throws(EventLogError) {
        var written: Int
        repeat {
            written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        } while written < 0 && errno == EINTR
        guard written >= 0 else { throw Self.failure("append to", url) }
        guard written == bytes.count else {
            throw .fileOperationFailed(
                operation: "append to", path: url.path,
                reason: "only \(written) of \(bytes.count) bytes were written")
        }
    }

    /// Flushes the file's data to disk.
    func synchronize() throws(EventLogError) {
        guard fsync(descriptor) == 0 else { throw Self.failure("flush to disk", url) }
    }

    /// Cuts the file back to `size` bytes.
    func truncate(to size: Int) throws(EventLogError) {
        guard ftruncate(descriptor, off_t(size)) == 0 else { throw Self.failure("truncate", url) }
    }

    /// The failure of `operation` on `url`, with the reason `errno` gives.
    private static func failure(_ operation: String, _ url: URL) -> EventLogError {
        .fileOperationFailed(operation: operation, path: url.path, reason: String(cString: strerror(errno)))
    }
}
