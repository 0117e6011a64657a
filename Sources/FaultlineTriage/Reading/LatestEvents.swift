import FaultlineLogReading
import FaultlineRecords

/// The latest events of the logs, for `faultline tail`: files are read newest first, and older ones only while fewer
/// events than asked for were found, so that a long history costs only its end.
package struct LatestEvents: Sendable {
    /// The events found, oldest first.
    package let events: [EventRecord]
    /// The files read that could not be opened or read.
    package let unreadableFiles: [UnreadableFile]

    /// The last `count` events of `files` (oldest first, as ``LogFile/all(in:)`` lists them) that `filter` accepts.
    /// Outbox envelopes are left out: their events are in the log.
    package init(_ count: Int, from files: [LogFile], filter: EventFilter) {
        var reader = LogReader()
        var latest: [EventRecord] = []
        for file in files.reversed() where count > 0 && file.kind != .envelope {
            var ofFile: [EventRecord] = []
            reader.read(file) { record, line in
                guard filter.accepts(record), filter.acceptsLine(of: record, line) else { return }
                ofFile.append(record)
                // Kept to twice the count, written so that a count as large as Int.max does not overflow.
                if ofFile.count - count > count { ofFile.removeFirst(ofFile.count - count) }
            }
            latest = ofFile.suffix(count - min(count, latest.count)) + latest
            if latest.count >= count { break }
        }
        events = latest.sorted { $0.timestamp < $1.timestamp }
        unreadableFiles = reader.unreadableFiles
    }
}
