import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// A new version of a file, written to a temporary file beside it (`.<name>.rewrite.tmp`, with the file's
/// permissions) and put in its place by ``commit()``: flushed to disk, renamed over the file, and the rename flushed
/// with the directory. A crash at any moment leaves the file as it was or as rewritten, never between; the temporary
/// file it may leave is removed by ``removeLeftovers(in:)``. A rewrite dropped without ``commit()`` removes its
/// temporary file.
package final class AtomicRewrite {
    let destination: URL
    let temporary: URL
    private let descriptor: Int32
    private var isCommitted = false

    static let temporarySuffix = ".rewrite.tmp"

    /// Starts a new version of the file at `destination`.
    package init(replacing destination: URL) throws {
        self.destination = destination
        let directory = destination.deletingLastPathComponent()
        temporary = directory.appendingPathComponent(
            "." + destination.lastPathComponent + Self.temporarySuffix, isDirectory: false)
        var status = stat()
        guard stat(destination.path, &status) == 0 else { throw Self.lastError() }
        unlink(temporary.path)
        descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, status.st_mode & 0o777)
        guard descriptor >= 0 else { throw Self.lastError() }
    }

    deinit {
        close(descriptor)
        if !isCommitted { unlink(temporary.path) }
    }

    /// Appends `bytes` to the new version.
    package func append(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let count = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if count < 0 {
                guard errno == EINTR else { throw Self.lastError() }
                continue
            }
            offset += count
        }
    }

    /// Puts the new version in the file's place, durably.
    package func commit() throws {
        guard fsync(descriptor) == 0 else { throw Self.lastError() }
        guard rename(temporary.path, destination.path) == 0 else { throw Self.lastError() }
        isCommitted = true
        let directory = open(destination.deletingLastPathComponent().path, O_RDONLY | O_CLOEXEC)
        guard directory >= 0 else { return }
        fsync(directory)
        close(directory)
    }

    /// Removes the temporary files a rewrite interrupted by a crash left in `directory`.
    package static func removeLeftovers(in directory: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name.hasPrefix(".") && name.hasSuffix(temporarySuffix) {
            unlink(directory.appendingPathComponent(name, isDirectory: false).path)
        }
    }

    private static func lastError() -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
}
