import Foundation

/// Why the event log could not write a line or manage its files.
package enum EventLogError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The line contains a newline at byte `offset`, so it would read back as two lines; nothing was written.
    case lineContainsNewline(offset: Int)
    /// The line is empty; nothing was written.
    case emptyLine
    /// The log was closed, as ``Reporter/close(timeout:)`` closes it; nothing more is written to it.
    case closed(URL)
    /// A file operation failed: what was done, to which path, and the system's reason.
    case fileOperationFailed(operation: String, path: String, reason: String)
    /// Another process writes the log file at `path` (``LogDirectoryLock``): one log writes a file.
    case writtenElsewhere(path: String)

    package var description: String {
        switch self {
        case .lineContainsNewline(let offset):
            "The line was not written: it contains a newline at byte \(offset), and each line of the event log must "
                + "be one whole event. Encode events as compact JSON, which escapes newlines inside strings as \\n."
        case .emptyLine:
            "The line was not written: it is empty, and each line of the event log must be one whole event."
        case .closed(let file):
            "The event log \(file.path) is closed; create a new reporter to write to it again."
        case .writtenElsewhere(let path):
            "\(path) is written by another process: a faultline serve, or an app's reporter, on the same log "
                + "directory. Give each its own log directory, or stop the other first."
        case .fileOperationFailed(let operation, let path, let reason):
            "Could not \(operation) \(path): \(reason). Check that the directory exists, is writable, and that the "
                + "disk has free space."
        }
    }
}
