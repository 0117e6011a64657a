/// What reading the files found: how much was read, and everything that was skipped, by reason. Every count is
/// always present, zero or not.
public struct ReadCounts: Hashable, Sendable, Codable {
    /// Files read, and bytes read from them (compressed bytes for rotated logs).
    public var files = 0
    public var bytes = 0
    /// Non-empty lines seen, and the events read from them and from envelopes.
    public var lines = 0
    public var events = 0
    /// Fields of events that had an unexpected type and were left out; their events were read without them.
    public var ignoredFields = 0
    /// Lines skipped: not UTF-8, not one JSON object, JSON without an event id and time, longer than 16 MiB.
    public var notUTF8 = 0
    public var notJSON = 0
    public var notAnEvent = 0
    public var tooLong = 0
    /// Rotated logs that end inside a gzip member, or hold data that is not gzip; the lines before are read.
    public var truncatedGzip = 0
    public var corruptGzip = 0
    /// Envelopes that could not be parsed, and files that could not be opened or read.
    public var unreadableEnvelopes = 0
    public var unreadableFiles = 0
    /// Reads of an event already read (the same `event_id` again in the logs, or in the log and the outbox): the
    /// event is counted once.
    public var duplicates = 0

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

    public init() {}

    /// Adds the counts of another read.
    mutating func add(_ other: ReadCounts) {
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

extension ReadCounts {
    /// The footer every text report ends with: what was read, and what was skipped and why, when anything was.
    static func text(_ counts: ReadCounts, style: TextStyle) -> String {
        var line =
            "read \(counted(counts.files, "file")), \(counted(counts.lines, "line")), \(counted(counts.events, "event"))"
        if counts.duplicates > 0 { line += " (\(counts.duplicates) read again and counted once)" }
        if counts.ignoredFields > 0 {
            line += "; \(counted(counts.ignoredFields, "field")) of an unexpected type left out"
        }
        let skippedLines = [
            ("not UTF-8", counts.notUTF8), ("not JSON", counts.notJSON), ("not events", counts.notAnEvent),
            ("over 16 MiB", counts.tooLong),
        ].filter { $0.1 > 0 }.map { "\($0.1) \($0.0)" }
        let skippedFiles = [
            ("truncated gzip file", counts.truncatedGzip), ("corrupt gzip file", counts.corruptGzip),
            ("unreadable envelope", counts.unreadableEnvelopes), ("unreadable file", counts.unreadableFiles),
        ].filter { $0.1 > 0 }.map { counted($0.1, $0.0) }
        let skipped = skippedLines + skippedFiles
        guard !skipped.isEmpty else { return style.dim(line) + "\n" }
        return style.dim(line) + "\n" + style.red("skipped: " + skipped.joined(separator: ", ")) + "\n"
    }
}
