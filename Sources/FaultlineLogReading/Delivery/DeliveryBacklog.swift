import FaultlineRecords
import Foundation

/// What waits to be sent in a log directory, read from the files as an uploader opening them would find them, for
/// `faultline stats` and `faultline serve`'s forward queues: it only reads, so it may run while an uploader sends.
package enum DeliveryBacklog {
    /// The envelopes that wait in the outbox `directory`, their bytes and when the oldest of them was stored (`nil`
    /// when none waits, or only records an earlier version wrote without the time): those stored from its cursor on
    /// and not done (the stored cursor lags the deliveries by at most 25 ms), and files of one envelope an earlier
    /// version left.
    package static func inOutbox(_ directory: URL) -> (envelopes: Int, bytes: Int, oldest: Date?) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let cursorFile = DeliveryCursor.outboxFile(in: directory)
        let stored = (try? DeliveryCursor.stored(in: cursorFile)) ?? nil
        let cursor = stored?.position
        let done = Set(stored?.done ?? [])
        var waiting: (envelopes: Int, bytes: Int, oldest: Date?) = (0, 0, nil)
        func wait(bytes: Int, since date: Date?) {
            waiting.envelopes += 1
            waiting.bytes += bytes
            if let date, date < waiting.oldest ?? .distantFuture { waiting.oldest = date }
        }
        for name in names {
            let file = directory.appendingPathComponent(name, isDirectory: false)
            if let number = OutboxSegment.number(ofFile: name) {
                guard number >= cursor?.segment ?? 0, let contents = try? OutboxSegment.contents(of: file.path) else {
                    continue
                }
                let start = number == cursor?.segment ? cursor?.offset ?? 0 : 0
                for record in contents.records
                where record.offset >= start && !record.isErased
                    && !done.contains(LogPosition(segment: number, offset: record.offset))
                {
                    wait(bytes: Int(record.length), since: record.stored)
                }
            } else if name.hasSuffix(".envelope"), !name.hasPrefix(".") {
                let values = try? file.resourceValues(forKeys: [.fileSizeKey, .contentModificationDateKey])
                wait(bytes: values?.fileSize ?? 0, since: values?.contentModificationDate)
            }
        }
        return waiting
    }

    /// The records of the log of `kind` in `layout` that wait to be sent by the uploaders whose outbox is the
    /// layout's, and their bytes: for each destination whose cursor into that log is stored there, the lines from its
    /// cursor to the end of the log but those it says are done (the stored cursor lags the deliveries by at most
    /// 25 ms).
    package static func inLog(_ kind: RecordKind, of layout: LogLayout) -> (records: Int, bytes: Int) {
        let directory = layout.outbox
        let log = kind.logConfiguration(in: layout, maximumAge: nil)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let prefix = DeliveryCursor.filePrefix(of: kind)
        let cursors = names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.compactMap {
            (try? DeliveryCursor.stored(in: directory.appendingPathComponent($0, isDirectory: false))) ?? nil
        }
        guard !cursors.isEmpty, let (segments, activeSegment) = try? EventLog.segments(of: log) else { return (0, 0) }
        let reader = LogSegmentReader(log: log)
        var waiting = (records: 0, bytes: 0)
        for cursor in cursors {
            let done = Set(cursor.done ?? [])
            for segment in segments + [activeSegment] where segment >= cursor.position.segment {
                let offset = segment == cursor.position.segment ? cursor.position.offset : 0
                try? reader.forEachLine(of: segment, from: offset, isActive: segment == activeSegment) {
                    position, line in
                    if line.first == UInt8(ascii: "{"), !done.contains(position) {
                        waiting.records += 1
                        waiting.bytes += line.count
                    }
                    return true
                }
            }
        }
        return waiting
    }
}
