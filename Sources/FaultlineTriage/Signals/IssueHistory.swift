import FaultlineLogReading
import FaultlineRecords

/// What an issue's events before and in a window say about it, beyond the window's counts: when it was first seen,
/// how many events it had in the baseline, and its events by release up to the window's end.
struct IssueHistory: Hashable, Sendable {
    var firstSeen: Double
    var baselineEvents = 0
    var releases: [String: Int] = [:]

    init(firstSeen: Double) {
        self.firstSeen = firstSeen
    }

    /// Counts `record`, an event before the window's end.
    mutating func add(_ record: EventRecord, window: SignalWindow) {
        firstSeen = min(firstSeen, record.timestamp)
        if (window.baselineStart..<window.start).contains(record.timestamp) { baselineEvents += record.eventCount }
        if let release = record.release { releases[release, default: 0] += record.eventCount }
    }

    /// Takes back an event read again: its first copy was counted already.
    mutating func remove(_ record: EventRecord, window: SignalWindow) {
        if (window.baselineStart..<window.start).contains(record.timestamp) { baselineEvents -= record.eventCount }
        if let release = record.release { LogScan.decrement(&releases, release, by: record.eventCount) }
    }

    /// This history with a later piece's added.
    func merged(with later: IssueHistory) -> IssueHistory {
        var merged = self
        merged.firstSeen = min(firstSeen, later.firstSeen)
        merged.baselineEvents += later.baselineEvents
        merged.releases.merge(later.releases, uniquingKeysWith: +)
        return merged
    }
}
