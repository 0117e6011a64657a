import FaultlineRecords
import Foundation

/// Erases envelopes from an outbox (a reporter's `outbox/`, or one of `faultline serve`'s forward queues): in each
/// segment file, an envelope a predicate selects is blanked with spaces of the same length
/// (``OutboxSegment/Record/isErased``), so that every other record keeps its offset, which the outbox's cursor holds;
/// a file of one envelope an earlier version left is deleted. A segment is rewritten whole through an
/// ``AtomicRewrite``, and only when it holds a selected envelope.
///
/// No uploader may have the outbox open meanwhile: it would send the envelopes it holds in memory.
package enum OutboxErasure {
    /// Blanks each envelope stored in the outbox `directory` that `isErased` selects; with `dryRun`, only counts them.
    ///
    /// - Parameter isErased: Whether an envelope (its serialized bytes) is to be erased; envelopes already erased are
    ///   not asked about.
    /// - Returns: How many envelopes were (or would be) erased; none when the directory is missing.
    /// - Throws: ``LogFileErasure/Failure`` when a segment cannot be read or rewritten; it is left as it was then.
    package static func blankEnvelopes(
        inOutbox directory: URL, dryRun: Bool = false, where isErased: (Data) -> Bool
    ) throws(LogFileErasure.Failure) -> Int {
        if !dryRun { AtomicRewrite.removeLeftovers(in: directory) }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
        var erased = 0
        for name in names {
            let file = directory.appendingPathComponent(name, isDirectory: false)
            if OutboxSegment.number(ofFile: name) != nil {
                erased += try blankRecords(in: file, dryRun: dryRun, where: isErased)
            } else if name.hasSuffix(LogLayout.envelopeSuffix), !name.hasPrefix("."),
                let envelope = try? Data(contentsOf: file), isErased(envelope)
            {
                erased += 1
                if !dryRun, unlink(file.path) != 0 {
                    throw LogFileErasure.Failure(file: file, reason: String(cString: strerror(errno)))
                }
            }
        }
        return erased
    }

    /// Blanks the envelopes of the segment `file` that `isErased` selects.
    private static func blankRecords(
        in file: URL, dryRun: Bool, where isErased: (Data) -> Bool
    ) throws(LogFileErasure.Failure) -> Int {
        do {
            var bytes = try Data(contentsOf: file)
            let contents = OutboxSegment.records(in: bytes)
            var erased = 0
            for record in contents.records where !record.isErased {
                let payload = record.payloadOffset..<(record.payloadOffset + Int(record.length))
                guard isErased(bytes.subdata(in: payload)) else { continue }
                erased += 1
                bytes.replaceSubrange(payload, with: repeatElement(UInt8(ascii: " "), count: payload.count))
            }
            guard erased > 0, !dryRun else { return erased }
            let rewrite = try AtomicRewrite(replacing: file)
            try bytes.withUnsafeBytes { try rewrite.append($0) }
            try rewrite.commit()
            return erased
        } catch let failure as LogFileErasure.Failure {
            throw failure
        } catch {
            throw LogFileErasure.Failure(file: file, reason: "\(error)")
        }
    }
}
