import FaultlineRecords
import FaultlineReporting
import Foundation

/// A forward queue that no route names any more, emptied into the one upstream left (`--drain-stranded-queues`).
enum StrandedQueueDrain {
    /// Hands each envelope waiting in the outbox `directory` to `take`, oldest first, and marks it done there when
    /// `take` returns `true`; once nothing waits, the outbox's files are deleted. What `take` refuses keeps waiting.
    /// No uploader may have the outbox open meanwhile. A crash in the middle hands the envelopes taken since the
    /// outbox's cursor was last stored to `take` again at the next drain (at least once, never lost). Envelopes an
    /// earlier version left one per file (`*.envelope`) are handed over too, and their file deleted once taken.
    ///
    /// - Returns: How many envelopes were taken, and how many still wait.
    /// - Throws: When the outbox cannot be opened, or an envelope cannot be read back from its segment.
    static func drain(
        outbox directory: URL, into take: (Data) async -> Bool
    ) async throws -> (taken: Int, waiting: Int) {
        var outbox = try DurableQueue<EnvelopeSegments<DataCategory>>(
            outboxIn: directory, limits: OutboxLimits(maximumCount: .max, maximumBytes: .max))
        defer { outbox.closeFiles() }
        var (taken, refused) = (0, 0)
        while let entry = outbox.next(where: { _ in true }) {
            if await take(try outbox.contents(of: entry)) {
                outbox.remove(entry)
                taken += 1
            } else {
                refused += 1
            }
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        where name.hasSuffix(".envelope") && !name.hasPrefix(".") {
            let file = directory.appendingPathComponent(name, isDirectory: false)
            if await take(try Data(contentsOf: file)) {
                unlink(file.path)
                taken += 1
            } else {
                refused += 1
            }
        }
        return (taken, refused)
    }
}
