import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A filesystem of its own, small enough to fill: a tmpfs of a given size mounted on a fresh temporary directory
/// (this needs root, or `CAP_SYS_ADMIN`, as CI and the development machines have). ``fill()`` takes every byte left
/// with a filler file, ``free()`` deletes it, and ``remove()`` unmounts the filesystem.
package struct SmallDisk: Sendable {
    /// Why a small disk could not be made.
    package struct Unavailable: Error, CustomStringConvertible {
        package let description: String
    }

    /// Where it is mounted.
    package let url: URL
    private var filler: URL { url.appendingPathComponent(".filler") }

    /// Mounts a tmpfs of `bytes` on a new temporary directory.
    package init(bytes: Int) throws {
        let directory = try TemporaryDirectory("disk")
        url = directory.url
        #if os(Linux)
            guard mount("tmpfs", url.path, "tmpfs", 0, "size=\(bytes),mode=0700") == 0 else {
                let reason = String(cString: strerror(errno))
                directory.remove()
                throw Unavailable(description: "a tmpfs could not be mounted on \(url.path): \(reason) (needs root)")
            }
        #else
            directory.remove()
            throw Unavailable(description: "a small disk is made with a Linux tmpfs")
        #endif
    }

    /// Writes a filler file until the filesystem has no byte left: large writes first, then single bytes, which take
    /// what is left of the filler's last page.
    package func fill() throws {
        let descriptor = open(filler.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        for size in [1 << 16, 1 << 12, 1] {
            let chunk = [UInt8](repeating: 0x46, count: size)
            while write(descriptor, chunk, size) == size {}
        }
        guard errno == ENOSPC else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    /// Deletes the filler, so that the space it took is free again.
    package func free() {
        unlink(filler.path)
    }

    /// Unmounts the filesystem, deleting what it holds, and deletes the directory it was mounted on.
    package func remove() {
        #if os(Linux)
            umount2(url.path, Int32(MNT_DETACH))
        #endif
        try? FileManager.default.removeItem(at: url)
    }
}
