import FaultlineRecords
import Foundation

/// A file that holds events: the active log, a rotated log, or an envelope in the outbox.
package struct LogFile: Hashable, Sendable {
    /// How its events are stored.
    package enum Kind: String, Hashable, Sendable, Codable {
        /// `events.jsonl`: one event per line.
        case log
        /// `events-<UTC time>-<n>.jsonl.gz`: a rotated log, gzip-compressed.
        case rotatedLog = "rotated_log"
        /// `outbox/*.envelope`: an event waiting to be sent, in a Sentry envelope.
        case envelope
    }

    package let url: URL
    package let kind: Kind

    /// A file of the given kind.
    package init(url: URL, kind: Kind) {
        self.url = url
        self.kind = kind
    }

    /// A file named on the command line, its kind told by its name: `.gz`, `.envelope`, anything else a log.
    package init(url: URL) {
        switch url.pathExtension {
        case "gz": self.init(url: url, kind: .rotatedLog)
        case "envelope": self.init(url: url, kind: .envelope)
        default: self.init(url: url, kind: .log)
        }
    }

    /// A file named on the command line, which must exist and not be a directory.
    ///
    /// - Throws: ``TriageError/missingFile(_:)`` or ``TriageError/directoryAsFile(_:)``.
    package static func named(_ path: String) throws(TriageError) -> LogFile {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .missingFile(path) }
        guard !isDirectory.boolValue else { throw .directoryAsFile(path) }
        return LogFile(url: URL(fileURLWithPath: path))
    }

    /// The event files of a log directory, oldest first: rotated logs (their names sort by time), the active log,
    /// then the outbox's envelopes, as `LogLayout.eventFiles()` lists them.
    ///
    /// - Throws: ``TriageError/missingDirectory(_:)`` when `directory` does not exist,
    ///   ``TriageError/notADirectory(_:)`` when it is a file.
    package static func all(in directory: URL) throws(TriageError) -> [LogFile] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) else {
            throw .missingDirectory(directory.path)
        }
        guard isDirectory.boolValue else { throw .notADirectory(directory.path) }
        let files = LogLayout(directory).eventFiles()
        return files.rotatedLogs.map { LogFile(url: $0, kind: .rotatedLog) }
            + files.logs.map { LogFile(url: $0, kind: .log) }
            + files.envelopes.map { LogFile(url: $0, kind: .envelope) }
    }
}
