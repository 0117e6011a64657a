/// What reading the files found: how much was read, and everything that was skipped, by reason. Every count is
/// always present, zero or not.
package struct ReadCounts: Hashable, Sendable, Codable {
    /// Files read, and bytes read from them (compressed bytes for rotated logs).
    package var files = 0
    package var bytes = 0
    /// Non-empty lines seen, and the events read from them and from envelopes.
    package var lines = 0
    package var events = 0
    /// Fields of events that had an unexpected type and were left out; their events were read without them.
    package var ignoredFields = 0
    /// Lines skipped: not UTF-8, not one JSON object, JSON without an event id and time, longer than 16 MiB.
    package var notUTF8 = 0
    package var notJSON = 0
    package var notAnEvent = 0
    package var tooLong = 0
    /// Rotated logs that end inside a gzip member, or hold data that is not gzip; the lines before are read.
    package var truncatedGzip = 0
    package var corruptGzip = 0
    /// Envelopes that could not be parsed, and files that could not be opened or read.
    package var unreadableEnvelopes = 0
    package var unreadableFiles = 0
    /// Reads of an event already read (the same `event_id` again in the logs, or in the log and the outbox): the
    /// event is counted once.
    package var duplicates = 0

    enum CodingKeys: String, CodingKey {
        case files, bytes, lines, events, duplicates
        case ignoredFields = "ignored_fields"
        case notUTF8 = "not_utf8"
        case notJSON = "not_json"
        case notAnEvent = "not_an_event"
        case tooLong = "too_long"
        case truncatedGzip = "truncated_gzip"
        case corruptGzip = "corrupt_gzip"
        case unreadableEnvelopes = "unreadable_envelopes"
        case unreadableFiles = "unreadable_files"
    }

    package init() {}

    /// Adds the counts of another read.
    package mutating func add(_ other: ReadCounts) {
        files += other.files
        bytes += other.bytes
        lines += other.lines
        events += other.events
        ignoredFields += other.ignoredFields
        notUTF8 += other.notUTF8
        notJSON += other.notJSON
        notAnEvent += other.notAnEvent
        tooLong += other.tooLong
        truncatedGzip += other.truncatedGzip
        corruptGzip += other.corruptGzip
        unreadableEnvelopes += other.unreadableEnvelopes
        unreadableFiles += other.unreadableFiles
        duplicates += other.duplicates
    }
}
