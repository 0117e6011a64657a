import FaultlineLogReading
import FaultlineRecords

/// One issue: the events that share a fingerprint, with what triage shows about them. Its memory grows with its
/// distinct users, routes, codes, releases and active hours, never with its number of events.
package struct Issue: Hashable, Sendable {
    /// The id ``IssueID`` gives its fingerprint, all 32 hex digits; shown abbreviated (``LogScan/shortID(of:)``).
    package let id: String
    package let fingerprint: [String]
    /// The kind of its latest event (``EventRecord/kind``), read when asked for rather than for every event added.
    package var kind: String { latest.kind }
    /// The title of its latest event (``EventRecord/title``): its exception value or message.
    package var title: String { latest.title }
    package internal(set) var events = 0
    package internal(set) var firstSeen: Double
    package internal(set) var lastSeen: Double
    /// Event counts by user (id, else email or username), user segment, route, status, business code, release and
    /// environment.
    package internal(set) var users: [String: Int] = [:]
    package internal(set) var segments: [String: Int] = [:]
    package internal(set) var routes: [String: Int] = [:]
    package internal(set) var statuses: [String: Int] = [:]
    package internal(set) var serverCodes: [String: Int] = [:]
    package internal(set) var releases: [String: Int] = [:]
    package internal(set) var environments: [String: Int] = [:]
    /// Event counts by hour (seconds since 1970 divided by 3600), for trends.
    package internal(set) var hours: [Int: Int] = [:]
    /// Event counts by minute, for the trends of logs that span at most ``minuteTrendSpan``; `nil` for longer ones,
    /// whose trends are drawn from ``hours``, so that memory stays bounded however long the logs are.
    package internal(set) var minutes: [Int: Int]?

    /// The longest span of logs whose trends are drawn by minute: 12 hours, 720 minutes at most per issue.
    static let minuteTrendSpan: Double = 12 * 3600
    /// The latest event, for `show`.
    package internal(set) var latest: EventRecord

    init(first record: EventRecord, fingerprint: [String], countsMinutes: Bool) {
        id = IssueID.of(fingerprint)
        self.fingerprint = fingerprint
        firstSeen = record.timestamp
        lastSeen = record.timestamp
        latest = record
        minutes = countsMinutes ? [:] : nil
    }

    mutating func add(_ record: EventRecord) {
        let count = record.eventCount
        events += count
        firstSeen = min(firstSeen, record.timestamp)
        if record.timestamp >= lastSeen {
            lastSeen = record.timestamp
            latest = record
        }
        // Direct calls, not a table of key paths: this runs for every event read. The events a record carries count
        // with its own values: they were suppressed in the same app, and its fingerprint fixes the route, status and
        // code of most.
        Self.count(record.user, in: &users, by: count)
        Self.count(record.userSegment, in: &segments, by: count)
        Self.count(record.tags["http.route"], in: &routes, by: count)
        Self.count(record.tags["http.status_code"], in: &statuses, by: count)
        Self.count(record.tags["server.code"], in: &serverCodes, by: count)
        Self.count(record.release, in: &releases, by: count)
        Self.count(record.environment, in: &environments, by: count)
        hours[Int((record.timestamp / 3600).rounded(.down)), default: 0] += count
        minutes?[Int((record.timestamp / 60).rounded(.down)), default: 0] += count
    }

    /// Takes an event back out of the counts: it had been counted already. Its time is an earlier copy's too, so the
    /// first and last seen stay.
    mutating func remove(_ record: EventRecord) {
        let count = record.eventCount
        events -= count
        for (value, keyPath) in [
            (record.user, \Issue.users), (record.userSegment, \.segments), (record.tags["http.route"], \.routes),
            (record.tags["http.status_code"], \.statuses), (record.tags["server.code"], \.serverCodes),
            (record.release, \.releases), (record.environment, \.environments),
        ] {
            if let value { LogScan.decrement(&self[keyPath: keyPath], value, by: count) }
        }
        LogScan.decrement(&hours, Int((record.timestamp / 3600).rounded(.down)), by: count)
        if var counted = minutes {
            LogScan.decrement(&counted, Int((record.timestamp / 60).rounded(.down)), by: count)
            minutes = counted
        }
    }

    /// Stops counting by minute: the logs span more than ``minuteTrendSpan``.
    mutating func dropMinutes() {
        minutes = nil
    }

    /// This issue with the events of the same issue in a later piece of the logs added, as if read in order.
    func merged(with later: Issue) -> Issue {
        var issue = self
        issue.events += later.events
        issue.firstSeen = min(firstSeen, later.firstSeen)
        if later.lastSeen >= lastSeen {
            issue.lastSeen = later.lastSeen
            issue.latest = later.latest
        }
        issue.users.merge(later.users, uniquingKeysWith: +)
        issue.segments.merge(later.segments, uniquingKeysWith: +)
        issue.routes.merge(later.routes, uniquingKeysWith: +)
        issue.statuses.merge(later.statuses, uniquingKeysWith: +)
        issue.serverCodes.merge(later.serverCodes, uniquingKeysWith: +)
        issue.releases.merge(later.releases, uniquingKeysWith: +)
        issue.environments.merge(later.environments, uniquingKeysWith: +)
        issue.hours.merge(later.hours, uniquingKeysWith: +)
        if let laterMinutes = later.minutes {
            issue.minutes?.merge(laterMinutes, uniquingKeysWith: +)
        } else {
            issue.minutes = nil
        }
        return issue
    }

    private static func count(_ value: String?, in counts: inout [String: Int], by amount: Int) {
        if let value { counts[value, default: 0] += amount }
    }
}
