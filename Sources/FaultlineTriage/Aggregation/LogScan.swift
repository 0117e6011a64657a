import FaultlineLogReading
import FaultlineRecords
import FaultlineReporting
import Foundation

/// Reads log files once and groups the events that pass a filter into issues: what `summary`, `issues` and `show`
/// report. An event is counted once however many times it was read (by its `event_id`): twice in the logs, in a file
/// named twice, or in the log and an outbox envelope; ``ReadCounts/duplicates`` counts the other reads. An event that
/// carries the events its reporter suppressed counts for them too (``EventRecord/eventCount``).
///
/// Large logs are read on every core: files, and plain logs cut at line boundaries, are scanned in parallel and
/// their findings merged in file order, so the result is the one a sequential read gives.
package struct LogScan: Sendable {
    /// The size of the pieces a plain log is cut into for reading on several cores.
    static let pieceSize = 32 << 20

    /// How far a scan has read: bytes of the files (compressed bytes for rotated logs).
    package struct Progress: Hashable, Sendable {
        package let bytesRead: Int
        package let totalBytes: Int
    }

    /// The files read.
    package let files: [LogFile]
    /// The incident window the signals are computed for, if any: its events are the ones counted, and the events
    /// before it make the issues' histories.
    package let window: SignalWindow?
    /// Each issue's history up to the window's end, by fingerprint; only with a window.
    private(set) var histories: [[String]: IssueHistory] = [:]
    /// Each release's first event and its events up to the window's end; only with a window.
    package private(set) var releaseFirstSeen: [String: Double] = [:]
    package private(set) var releaseEvents: [String: Int] = [:]
    /// The issues, by fingerprint.
    package private(set) var issues: [[String]: Issue] = [:]
    /// The issues' ids as shown: each id's shortest prefix of at least 8 digits that no other issue's id has.
    private var shortIDs: [String: String] = [:]
    /// What was read and skipped.
    package private(set) var counts = ReadCounts()
    /// The files that could not be opened or read, and why.
    package private(set) var unreadableFiles: [UnreadableFile] = []
    /// Events that passed the filter, in all.
    package private(set) var events = 0
    /// Events by `error.kind`.
    package private(set) var kinds: [String: Int] = [:]
    /// Distinct users, releases and environments of the events that passed.
    package private(set) var users: Set<String> = []
    package private(set) var releases: [String: Int] = [:]
    /// Events that passed by minute (seconds since 1970 divided by 60), for timelines.
    package private(set) var minutes: [Int: Int] = [:]
    /// The first and last event time that passed, seconds since 1970.
    package private(set) var firstSeen: Double?
    package private(set) var lastSeen: Double?
    /// The requests the reporters counted by route in the same window, read beside the events (``countRequests(_:)``);
    /// `nil` when none were read: an issue's share of its route's requests comes from them.
    package private(set) var routeRequests: RouteOutcomes?
    /// How many issues fail under each route, method and outcome, counted once with ``routeRequests``.
    private var issuesByOutcomeKey: [OutcomeKey: Int] = [:]
    /// Ids of outbox events that were found in the log too.
    private var eventsAlsoInOutbox: Set<String> = []
    /// The events read, by id, to count each once.
    private var seen: Set<EventKey> = []
    /// What a piece's scan read and how, to take back the events an earlier piece had already read.
    private var source: (piece: LogPiece, filter: EventFilter)?
    /// Whether issues still count their events by minute: only while the events span at most
    /// ``Issue/minuteTrendSpan``.
    private var countsMinutes = true

    /// Reads `files` and keeps the events `filter` accepts, telling `progress` after each piece it has read. With a
    /// `window`, the events counted are those in it (the filter's own times are not used), and the events before it
    /// are read for the signals (``signals(of:)``), in the same single pass.
    package init(
        files: [LogFile], filter: EventFilter, window: SignalWindow? = nil, progress: (Progress) -> Void = { _ in }
    ) async {
        await self.init(files: files, filter: filter, window: window, pieceSize: Self.pieceSize, progress: progress)
    }

    /// Reads `files` in pieces of about `pieceSize` bytes.
    init(
        files: [LogFile], filter: EventFilter, window: SignalWindow? = nil, pieceSize: Int,
        progress: (Progress) -> Void = { _ in }
    ) async {
        self.files = files
        self.window = window
        // Envelopes are read first (there are at most a thousand): those the log also holds are counted there.
        var reader = LogReader()
        var outbox: [String: (record: EventRecord, isAccepted: Bool)] = [:]
        for file in files where file.kind == .envelope {
            reader.read(file) { record, line in
                outbox[record.eventID] = (record, filter.acceptsLine(of: record, line))
            }
        }
        counts = reader.counts
        unreadableFiles = reader.unreadableFiles
        let pieces = LogPiece.plan(files.filter { $0.kind != .envelope }, size: pieceSize)
        let outboxIDs = Set(outbox.keys)
        let totalBytes = pieces.reduce(0) { $0 + $1.byteCount }
        var bytesRead = 0
        await LogPiece.read(pieces) { _, piece in
            LogScan(piece: piece, filter: filter, window: window, outboxIDs: outboxIDs)
        } merge: { piece, part in
            merge(part)
            bytesRead += piece.byteCount
            progress(Progress(bytesRead: bytesRead, totalBytes: totalBytes))
        }
        let unsent = outbox.values.filter { !eventsAlsoInOutbox.contains($0.record.eventID) }
        for (record, isAccepted) in unsent.sorted(by: { $0.record.timestamp < $1.record.timestamp }) where isAccepted {
            add(record, filter: filter)
        }
        counts.duplicates += outbox.count - unsent.count
        shortIDs = IssueID.abbreviations(of: issues.values.map(\.id))
    }

    /// The scan of one piece, which ``init(files:filter:pieceSize:progress:)`` merges into the whole.
    private init(piece: LogPiece, filter: EventFilter, window: SignalWindow?, outboxIDs: Set<String>) {
        files = [piece.file]
        self.window = window
        source = (piece, filter)
        var reader = LogReader()
        var duplicates = 0
        reader.read(piece) { record, line in
            guard seen.insert(EventKey(record.eventID)).inserted else {
                duplicates += 1
                return
            }
            if !outboxIDs.isEmpty, outboxIDs.contains(record.eventID) { eventsAlsoInOutbox.insert(record.eventID) }
            if filter.acceptsLine(of: record, line) { add(record, filter: filter) }
        }
        counts = reader.counts
        unreadableFiles = reader.unreadableFiles
        counts.duplicates += duplicates
    }

    private mutating func add(_ record: EventRecord, filter: EventFilter) {
        let fingerprint: [String]
        if let window {
            guard filter.acceptsIgnoringTime(record), window.contains(before: record.timestamp) else { return }
            fingerprint = record.grouping
            histories[fingerprint, default: IssueHistory(firstSeen: record.timestamp)].add(record, window: window)
            if let release = record.release {
                releaseFirstSeen[release] = min(releaseFirstSeen[release] ?? record.timestamp, record.timestamp)
                releaseEvents[release, default: 0] += record.eventCount
            }
            guard record.timestamp >= window.start else { return }
        } else {
            guard filter.accepts(record) else { return }
            fingerprint = record.grouping
        }
        let count = record.eventCount
        events += count
        kinds[record.kind, default: 0] += count
        if let user = record.user { users.insert(user) }
        if let release = record.release { releases[release, default: 0] += count }
        firstSeen = min(firstSeen ?? record.timestamp, record.timestamp)
        lastSeen = max(lastSeen ?? record.timestamp, record.timestamp)
        minutes[Int((record.timestamp / 60).rounded(.down)), default: 0] += count
        issues[fingerprint, default: Issue(first: record, fingerprint: fingerprint, countsMinutes: countsMinutes)].add(
            record)
        dropMinutesPastTheirSpan()
    }

    private mutating func dropMinutesPastTheirSpan() {
        guard countsMinutes, let firstSeen, let lastSeen, lastSeen - firstSeen > Issue.minuteTrendSpan else { return }
        countsMinutes = false
        for fingerprint in issues.keys { issues[fingerprint]?.dropMinutes() }
    }

    /// Takes an event back out of the counts: it was read again in a later piece than the one that counted it.
    private mutating func remove(_ record: EventRecord, filter: EventFilter) {
        let fingerprint = record.grouping
        if let window {
            guard filter.acceptsIgnoringTime(record), window.contains(before: record.timestamp) else { return }
            histories[fingerprint]?.remove(record, window: window)
            if let release = record.release { Self.decrement(&releaseEvents, release, by: record.eventCount) }
            guard record.timestamp >= window.start else { return }
        } else {
            guard filter.accepts(record) else { return }
        }
        let count = record.eventCount
        events -= count
        Self.decrement(&kinds, record.kind, by: count)
        if let release = record.release { Self.decrement(&releases, release, by: count) }
        Self.decrement(&minutes, Int((record.timestamp / 60).rounded(.down)), by: count)
        issues[fingerprint]?.remove(record)
        if issues[fingerprint]?.events == 0 { issues[fingerprint] = nil }
    }

    /// Takes `amount` from the count of `key`, removing it at zero.
    static func decrement<Key: Hashable>(_ counts: inout [Key: Int], _ key: Key, by amount: Int) {
        guard let count = counts[key] else { return }
        counts[key] = count > amount ? count - amount : nil
    }

    /// Adds what the scan of a later piece found, without the events this scan had already read.
    private mutating func merge(_ later: LogScan) {
        var later = later
        // One pass over the later piece's ids both finds those read before and adds the others.
        var repeated: Set<EventKey> = []
        seen.reserveCapacity(seen.count + later.seen.count)
        for key in later.seen where !seen.insert(key).inserted { repeated.insert(key) }
        if !repeated.isEmpty, let (piece, filter) = later.source {
            var takenBack: Set<EventKey> = []
            var reader = LogReader()
            reader.read(piece) { record, line in
                let key = EventKey(record.eventID)
                guard repeated.contains(key), takenBack.insert(key).inserted else { return }
                if filter.acceptsLine(of: record, line) { later.remove(record, filter: filter) }
            }
            later.counts.duplicates += repeated.count
        }
        counts.add(later.counts)
        unreadableFiles += later.unreadableFiles
        events += later.events
        kinds.merge(later.kinds, uniquingKeysWith: +)
        users.formUnion(later.users)
        releases.merge(later.releases, uniquingKeysWith: +)
        minutes.merge(later.minutes, uniquingKeysWith: +)
        firstSeen = [firstSeen, later.firstSeen].compactMap { $0 }.min()
        lastSeen = [lastSeen, later.lastSeen].compactMap { $0 }.max()
        issues.merge(later.issues) { earlier, later in earlier.merged(with: later) }
        eventsAlsoInOutbox.formUnion(later.eventsAlsoInOutbox)
        histories.merge(later.histories) { earlier, later in earlier.merged(with: later) }
        releaseFirstSeen.merge(later.releaseFirstSeen) { min($0, $1) }
        releaseEvents.merge(later.releaseEvents, uniquingKeysWith: +)
        if !later.countsMinutes { countsMinutes = false }
        if countsMinutes {
            dropMinutesPastTheirSpan()
        } else {
            for fingerprint in issues.keys { issues[fingerprint]?.dropMinutes() }
        }
    }

    /// When `issue` was first seen in the logs read: its first event, before the window too when there is one (the
    /// window bounds what is counted, not how old an issue is).
    package func firstSeen(of issue: Issue) -> Double {
        histories[issue.fingerprint].map { min($0.firstSeen, issue.firstSeen) } ?? issue.firstSeen
    }

    /// Takes the requests the reporters counted by route in the scan's window (and those estimated from spans where
    /// only spans were sent), for each issue's share of its route's requests (``requests(of:)``); nothing when none
    /// were counted.
    package mutating func countRequests(_ outcomes: RouteOutcomes) {
        routeRequests = outcomes.read.intervals > 0 || !outcomes.estimates.isEmpty ? outcomes : nil
        issuesByOutcomeKey = [:]
        guard routeRequests != nil else { return }
        for issue in issues.values {
            if let key = Self.outcomeKey(of: issue) { issuesByOutcomeKey[key, default: 0] += 1 }
        }
    }

    /// The requests of the route most of `issue`'s events came from, with their method when the events say it, and of
    /// them those that failed as the issue's did (its kind and status class, such as `server.4xx`) when it is the only
    /// issue of its route, kind and status class, so that they are its own; `nil` when the route has no request counts
    /// (its app does not record them, or the events have no route). Either count is estimated in part when spans
    /// were all some release sent of the route (``RouteOutcomes/requests(ofRoute:method:outcome:)``).
    package func requests(of issue: Issue) -> (all: RouteOutcomes.Count, failed: RouteOutcomes.Count?)? {
        guard let routeRequests, let key = Self.outcomeKey(of: issue) else { return nil }
        guard let all = routeRequests.requests(ofRoute: key.route, method: key.method) else { return nil }
        let isAlone = issuesByOutcomeKey[key] == 1
        let failed = routeRequests.requests(ofRoute: key.route, method: key.method, outcome: key.outcome)
        return (all, isAlone ? failed : nil)
    }

    /// The route, method and outcome (`server.4xx`) the request outcomes count an issue's failures under.
    private struct OutcomeKey: Hashable {
        let route: String
        let method: String?
        let outcome: String
    }

    private static func outcomeKey(of issue: Issue) -> OutcomeKey? {
        guard let route = IssueRow.mostCommon(issue.routes) else { return nil }
        let outcome = IssueRow.mostCommon(issue.statuses).map { "\(issue.kind).\($0.prefix(1))xx" } ?? issue.kind
        return OutcomeKey(route: route, method: issue.latest.tags["http.method"], outcome: outcome)
    }

    /// The id of `issue` as it is shown: the shortest prefix of its id, of at least 8 digits, that no other issue
    /// read has.
    package func shortID(of issue: Issue) -> String {
        shortIDs[issue.id] ?? String(issue.id.prefix(IssueID.shortLength))
    }

    /// The issue whose id starts with `id`: its id as shown, any longer prefix, or the whole id.
    ///
    /// - Throws: ``IssueLookupError`` when no issue or more than one matches.
    package func issue(_ id: String) throws(IssueLookupError) -> Issue {
        let prefix = id.lowercased()
        let matches = prefix.isEmpty ? [] : issues.values.filter { $0.id.hasPrefix(prefix) }
        guard matches.count == 1, let issue = matches.first else {
            throw matches.isEmpty ? .notFound(id) : .ambiguous(id, matches.map(shortID(of:)).sorted())
        }
        return issue
    }

    /// The latest event of `issue` decoded in full (breadcrumbs, contexts, request), read again from the files:
    /// a scan keeps only what it counts.
    package func latestEvent(of issue: Issue) -> SentryEvent? {
        var reader = LogReader()
        var found: SentryEvent?
        for file in files where found == nil {
            reader.read(file) { record, line in
                guard found == nil, record.eventID == issue.latest.eventID else { return }
                found = try? SentryEvent(line: line)
            }
        }
        return found
    }
}

/// Why `faultline show` found no single issue.
package enum IssueLookupError: Error, Hashable, Sendable, CustomStringConvertible {
    case notFound(String)
    case ambiguous(String, [String])

    package var description: String {
        switch self {
        case .notFound(let id):
            "No issue \(id) in these logs and filters. Run 'faultline issues' to list the ids."
        case .ambiguous(let id, let matches):
            "\(id) matches \(matches.count) issues (\(matches.prefix(10).joined(separator: ", "))"
                + "\(matches.count > 10 ? ", …" : "")): give more of the id."
        }
    }
}
