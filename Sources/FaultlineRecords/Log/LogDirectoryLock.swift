import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// An advisory lock on a log directory (`flock(2)` on its `faultline.lock`), so that a rewrite of its files never
/// runs beside a process that writes them: every writer (an ``EventLog``, `faultline serve`) holds it shared for as
/// long as it writes, and `faultline forget` holds it exclusively while it rewrites. A log file has a lock of its own
/// (`events.jsonl.lock`), which its one writer holds exclusively, so that a second `faultline serve`, or an app's
/// reporter, on the same directory is refused instead of writing beside it. The lock is released when the value goes
/// away, or when the process ends, killed or not.
package final class LogDirectoryLock: Sendable {
    /// The lock file's name in the log directory.
    package static let fileName = "faultline.lock"

    /// Why the lock could not be taken.
    package enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// Another process holds the lock: it writes the directory, or rewrites it.
        case held(path: String)
        /// Another process writes the log file at `path`.
        case written(path: String)
        /// The lock file could not be opened or locked.
        case failed(path: String, reason: String)

        package var description: String {
            switch self {
            case .held(let path):
                "\(path) is in use: a process writes this log directory (faultline serve, or an app's reporter). "
                    + "Stop it first (serve finishes its requests on SIGTERM, and clients keep their events until it "
                    + "is back), then run the command again."
            case .written(let path): EventLogError.writtenElsewhere(path: path).description
            case .failed(let path, let reason): "Could not lock \(path): \(reason)."
            }
        }
    }

    private let descriptor: Int32

    /// Takes the lock of `directory` shared, as a writer does, waiting while a rewrite holds it exclusively.
    package convenience init(sharing directory: URL) throws(Failure) {
        try self.init(directory, operation: LOCK_SH)
    }

    /// Takes the lock of `directory` exclusively, as a rewrite does; throws ``Failure/held(path:)`` at once when a
    /// writer holds it.
    package convenience init(exclusive directory: URL) throws(Failure) {
        try self.init(directory, operation: LOCK_EX | LOCK_NB)
    }

    /// Takes the lock of the log file `file` exclusively, as its one writer does; throws ``Failure/written(path:)`` at
    /// once when another process writes it.
    package convenience init(writing file: URL) throws(Failure) {
        do {
            try self.init(path: file.path + ".lock", operation: LOCK_EX | LOCK_NB)
        } catch .held {
            throw .written(path: file.path)
        }
    }

    private convenience init(_ directory: URL, operation: Int32) throws(Failure) {
        try self.init(
            path: directory.appendingPathComponent(Self.fileName, isDirectory: false).path, operation: operation)
    }

    private init(path: String, operation: Int32) throws(Failure) {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .failed(path: path, reason: String(cString: strerror(errno))) }
        var status: Int32
        repeat {
            status = flock(descriptor, operation)
        } while status != 0 && errno == EINTR
        guard status == 0 else {
            let error = errno
            close(descriptor)
            throw error == EWOULDBLOCK
                ? .held(path: path) : .failed(path: path, reason: String(cString: strerror(error)))
        }
        self.descriptor = descriptor
    }

    deinit {
        // Unlocked before it is closed: a child another thread is forking at this moment holds a copy of the
        // descriptor until it execs, and a lock is released only when every copy is closed, or by an unlock through
        // any of them. Without it, a log reopened right after it was closed was refused as written elsewhere.
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
