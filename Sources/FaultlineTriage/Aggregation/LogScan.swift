import Foundation

/// Reads log files once and groups the events that pass a filter into issues: what `summary`, `issues` and `show`
/// report. Outbox envelopes whose event the log also holds are counted once.
public struct LogScan: Sendable {
    /// The issues, by id.
    public private(set) var issues: [String: Issue] = [:]
    /// What was read and skipped.
    public private(set) var counts = ReadCounts()
    /// Events that passed the filter, in all.
    public private(set) var events = 0
    /// Events by `error.kind`.
    public private(set) var kinds: [String: Int] = [:]
    /// Distinct users, releases and environments of the events that passed.
    public private(set) var users: Set<String> = []
    public private(set) var releases: [String: Int] = [:]
    /// The first and last event time that passed, seconds since 1970.
    public private(set) var firstSeen: Double?
    public private(set) var lastSeen: Double?

    /// Reads `files` and keeps the events `filter` accepts.
    public init(files: [LogFile], filter: EventFilter) {
        var reader = LogReader()
        // Envelopes are read first (there are at most a thousand): those the log also holds are counted there.
        var pending: [String: EventRecord] = [:]
        for file in files where file.kind == .envelope {
            reader.read(file) { pending[$0.eventID] = $0 }
        }
        var duplicates = 0
        for file in files where file.kind != .envelope {
            reader.read(file) { record in
                if pending.removeValue(forKey: record.eventID) != nil { duplicates += 1 }
                add(record, filter: filter)
            }
        }
        for record in pending.values.sorted(by: { $0.timestamp < $1.timestamp }) { add(record, filter: filter) }
        counts = reader.counts
        counts.duplicates = duplicates
    }

    private mutating func add(_ record: EventRecord, filter: EventFilter) {
        guard filter.accepts(record) else { return }
        events += 1
        kinds[record.tags["error.kind"] ?? "other", default: 0] += 1
        if let user = record.user { users.insert(user) }
        if let release = record.release { releases[release, default: 0] += 1 }
        firstSeen = min(firstSeen ?? record.timestamp, record.timestamp)
        lastSeen = max(lastSeen ?? record.timestamp, record.timestamp)
        let fingerprint = Issue.fingerprint(of: record)
        let id = IssueID.of(fingerprint)
        issues[id, default: Issue(first: record, fingerprint: fingerprint)].add(record)
    }
}
