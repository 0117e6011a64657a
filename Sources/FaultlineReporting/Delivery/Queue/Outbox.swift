import FaultlineRecords
import Foundation

/// Envelopes waiting to be sent, oldest first, counted by their Sentry data category: the record layer's outbox
/// (`DurableQueue+Outbox.swift`), which holds only envelopes that arrive whole, as a relay's do.
typealias Outbox = DurableQueue<EnvelopeSegments<DataCategory>>

extension DurableQueue where Segments == EnvelopeSegments<DataCategory> {
    /// Whether `directory` holds envelopes an earlier run stored: outbox segments, or files an earlier version left
    /// one envelope per file. A directory that is missing or cannot be listed holds none.
    static func holdsEnvelopes(in directory: URL) -> Bool {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.contains { name in
            isEarlierVersionsEnvelope(name) || (!name.hasPrefix(".") && OutboxSegment.number(ofFile: name) != nil)
        }
    }

    /// Opens the outbox in `directory` (``DurableQueue/init(outboxIn:limits:)``), and moves into it the envelopes an
    /// earlier version left one per file (`*.envelope`).
    ///
    /// - Parameter unreadable: Called with each such file that is not an envelope Faultline sends; the file is deleted.
    /// - Throws: When the directory cannot be created or listed.
    init(directory: URL, limits: OutboxLimits, unreadable: (URL, any Error) -> Void) throws {
        try self.init(outboxIn: directory, limits: limits)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        for name in names where Self.isEarlierVersionsEnvelope(name) {
            let file = directory.appendingPathComponent(name, isDirectory: false)
            do {
                let envelope = try Data(contentsOf: file)
                _ = try store(envelope, category: try DataCategory.rateLimiting(envelope))
            } catch {
                unreadable(file, error)
            }
            unlink(file.path)
        }
    }

    /// Whether the file `name` is an envelope an earlier version stored one per file.
    private static func isEarlierVersionsEnvelope(_ name: String) -> Bool {
        name.hasSuffix(".envelope") && !name.hasPrefix(".")
    }
}
