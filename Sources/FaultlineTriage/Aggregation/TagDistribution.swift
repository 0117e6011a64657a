import FaultlineLogReading
import FaultlineRecords

/// How an event's tags are spread: for each tag (those the events sent, and Sentry's built-in ones, ``BuiltInTags``),
/// how many events have it and how many have each value, as Sentry's tag distribution shows them. Each event counts once however many times it was read, and for the events its
/// reporter suppressed (``EventRecord/eventCount``).
package struct TagDistribution: Sendable {
    /// Events that passed the filter.
    package private(set) var events = 0
    /// Events by tag and value.
    package private(set) var counts: [String: [String: Int]] = [:]
    package private(set) var readCounts = ReadCounts()
    package private(set) var unreadableFiles: [UnreadableFile] = []

    /// Reads `files` and counts the tags of the events `filter` accepts.
    package init(files: [LogFile], filter: EventFilter) {
        var reader = LogReader()
        var seen: Set<EventKey> = []
        for file in files {
            reader.read(file) { record, line in
                guard seen.insert(EventKey(record.eventID)).inserted, filter.accepts(record),
                    filter.acceptsLine(of: record, line)
                else { return }
                let count = record.eventCount
                events += count
                for (key, value) in BuiltInTags.tags(of: record, line: line) {
                    counts[key, default: [:]][value, default: 0] += count
                }
            }
        }
        readCounts = reader.counts
        unreadableFiles = reader.unreadableFiles
    }

    /// Keeps only the tags named `keys`.
    package mutating func keep(_ keys: Set<String>) {
        counts = counts.filter { keys.contains($0.key) }
    }
}
