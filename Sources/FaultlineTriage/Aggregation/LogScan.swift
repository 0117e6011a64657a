import FaultlineReporting
import Foundation

/// Reads log files once and groups the events that pass a filter into issues: what `summary`, `issues` and `show`
/// report. Outbox envelopes whose event the log also holds are counted once.
public struct LogScan: Sendable {
    /// The files read.
    public let files: [LogFile]
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
    /// Events that passed by minute (seconds since 1970 divided by 60), for timelines.
    public private(set) var minutes: [Int: Int] = [:]
    /// The first and last event time that passed, seconds since 1970.
    public private(set) var firstSeen: Double?
    public private(set) var lastSeen: Double?

    /// Reads `files` and keeps the events `filter` accepts.
    public init(files: [LogFile], filter: EventFilter) {
        self.files = files
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
        minutes[Int((record.timestamp / 60).rounded(.down)), default: 0] += 1
        let fingerprint = Issue.fingerprint(of: record)
        let id = IssueID.of(fingerprint)
        issues[id, default: Issue(first: record, fingerprint: fingerprint)].add(record)
    }

    /// The issue whose id is or starts with `id`.
    ///
    /// - Throws: ``IssueLookupError`` when no issue or more than one matches.
    public func issue(_ id: String) throws(IssueLookupError) -> Issue {
        if let issue = issues[id] { return issue }
        let matches = issues.values.filter { $0.id.hasPrefix(id.lowercased()) }
        guard matches.count == 1, let issue = matches.first else {
            throw matches.isEmpty ? .notFound(id) : .ambiguous(id, matches.map(\.id).sorted())
        }
        return issue
    }

    /// The latest event of `issue` decoded in full (breadcrumbs, contexts, request), read again from the files:
    /// a scan keeps only what it counts.
    public func latestEvent(of issue: Issue) -> SentryEvent? {
        var reader = LogReader()
        var found: SentryEvent?
        for file in files where found == nil {
            reader.read(file) { record, line in
                guard found == nil, record.eventID == issue.latest.eventID else { return }
                found = try? JSONDecoder().decode(SentryEvent.self, from: Data(buffer: line))
            }
        }
        return found
    }
}

/// Why `faultline show` found no single issue.
public enum IssueLookupError: Error, Hashable, Sendable, CustomStringConvertible {
    case notFound(String)
    case ambiguous(String, [String])

    public var description: String {
        switch self {
        case .notFound(let id):
            "No issue \(id) in these logs and filters. Run 'faultline issues' to list the ids."
        case .ambiguous(let id, let matches):
            "\(id) matches \(matches.count) issues (\(matches.joined(separator: ", "))): give more of the id."
        }
    }
}
