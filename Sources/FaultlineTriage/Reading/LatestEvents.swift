/// The latest events of the logs, for `faultline tail`: files are read newest first, and older ones only while fewer
/// events than asked for were found, so that a long history costs only its end.
public enum LatestEvents {
    /// The last `count` events of `files` (oldest first, as ``LogFile/all(in:)`` lists them) that `filter` accepts,
    /// oldest first. Outbox envelopes are left out: their events are in the log.
    public static func read(_ count: Int, from files: [LogFile], filter: EventFilter) -> [EventRecord] {
        guard count > 0 else { return [] }
        var reader = LogReader()
        var latest: [EventRecord] = []
        for file in files.reversed() where file.kind != .envelope {
            var ofFile: [EventRecord] = []
            reader.read(file) { record in
                guard filter.accepts(record) else { return }
                ofFile.append(record)
                if ofFile.count > 2 * count { ofFile.removeFirst(ofFile.count - count) }
            }
            latest = ofFile.suffix(count - min(count, latest.count)) + latest
            if latest.count >= count { break }
        }
        return latest.sorted { $0.timestamp < $1.timestamp }
    }
}
