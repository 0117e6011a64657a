import Foundation

/// Where delivery of a log to one destination stands, kept in a file of the uploader's directory so that a restarted
/// app resumes there: every line before the cursor was delivered or counted as dropped, the lines from it on are sent.
///
/// The file is replaced by an atomic rename, so it always holds a whole cursor; it lags the delivered lines by at most
/// one write, so an app killed just after a delivery sends the last few events again (at least once: the server
/// deduplicates them by `event_id`).
package struct DeliveryCursor: Hashable, Codable {
    /// The first line not yet delivered, or where the next line will start.
    package var position: LogPosition
    /// Records after ``position`` already delivered or dropped, which a restart does not send again (records are sent
    /// several at once, and an outbox's may wait for their category's rate limit); `nil` when there are none.
    package var done: [LogPosition]? = nil

    /// The outbox's cursor file in `directory`: `outbox-cursor.json`.
    package static func outboxFile(in directory: URL) -> URL {
        directory.appendingPathComponent("outbox-cursor.json", isDirectory: false)
    }

    /// How the names of the cursor files of `kind`'s log start.
    package static func filePrefix(of kind: RecordKind) -> String {
        kind == .events ? "cursor-" : "\(kind.fileName)-cursor-"
    }

    /// The cursor stored in `file`; `nil` when there is none.
    ///
    /// - Throws: When the file exists but does not hold a cursor.
    package static func stored(in file: URL) throws -> DeliveryCursor? {
        guard let data = try? Data(contentsOf: file) else { return nil }
        return try JSONDecoder().decode(DeliveryCursor.self, from: data)
    }

    /// Writes the cursor to `file` through a temporary file and a rename.
    package func store(in file: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let temporary = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).tmp")
        try WholeFile.write(try encoder.encode(self), to: temporary.path)
        guard rename(temporary.path, file.path) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }
}
