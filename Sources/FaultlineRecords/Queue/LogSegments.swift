import Foundation

/// The files of one of a reporter's logs (its events, transactions or request outcomes: ``RecordKind``) as a
/// ``DurableQueue``'s segments, for its delivery: the log is the outbox, and each record is written once. The log
/// appends the lines and evicts its oldest files; the queue is told of both (``DurableQueue/append(_:at:eventID:trace:)``,
/// ``DurableQueue/evict(_:)``) and reads lines back by their positions, from the active file or a rotated gzip file
/// streamed a piece at a time. Every line is counted by one `Category`, the log's.
///
/// At most ``indexLimit`` waiting lines are in the queue's memory (their positions, and the bytes of the newest up to
/// ``cacheBudget``); the lines after them, a backlog of an outage, are only counted by segment and read from the log
/// as the queue drains (`DurableQueue+Backlog.swift`), so memory does not grow with the backlog.
package struct LogSegments<Category: Hashable & Sendable>: QueueSegments {
    /// The most bytes of lines kept in memory.
    static var cacheBudget: Int { 4 * 1024 * 1024 }
    /// The most waiting lines indexed in memory: what the queue's owner configured (the SDK's `maxIndexedLines`).
    let indexLimit: Int

    /// What every line of the log is rate-limited and counted by.
    let category: Category
    /// The trace header (a JSON object) of each transaction appended in this run that waits, by its position, for the
    /// envelope that carries it: a transaction read back from the log after a restart gets one rebuilt from its line.
    private(set) var traces: [LogPosition: Data] = [:]
    var reader: LogSegmentReader
    /// Where the line after the last line the queue was told of starts.
    var logEnd: LogPosition
    private(set) var activeSegment: Int
    /// Where the first waiting line that is not indexed starts; `nil` when every waiting line is indexed.
    var unindexedFrom: LogPosition?
    /// The waiting lines not indexed, by segment, and how many they are in all.
    var unindexedLines: [Int: Int] = [:]
    package var unindexedCount = 0
    /// Lines found that cannot be sent (not an object on a line), not yet counted by the uploader.
    var skippedLines = 0

    init(category: Category, log: EventLog.Configuration, end: LogPosition, indexLimit: Int) {
        self.category = category
        self.indexLimit = indexLimit
        self.reader = LogSegmentReader(log: log)
        self.logEnd = end
        self.activeSegment = end.segment
    }

    package var end: LogPosition { unindexedFrom ?? logEnd }

    /// Reads the line of `record` back from the log.
    ///
    /// - Throws: ``LogSegmentReader/Failure``, ``LogSegmentReader/Failure/evicted`` when its file was evicted.
    package mutating func contents(of record: QueueRecord<Category>) throws -> Data {
        try reader.line(at: record.position, length: Int(record.length), activeSegment: activeSegment)
    }

    /// Keeps the trace header of the transaction at `position` until it is done.
    mutating func keep(trace: Data, at position: LogPosition) {
        traces[position] = trace
    }

    /// Forgets the trace header of `record`, which is done.
    package mutating func didFinish(_ record: QueueRecord<Category>) {
        if !traces.isEmpty { traces[record.position] = nil }
    }

    /// Indexes lines of the backlog when the queue holds fewer than half of ``indexLimit``.
    package static func fill(_ queue: inout DurableQueue<LogSegments>) {
        if queue.segments.unindexedFrom != nil, queue.count < queue.segments.indexLimit / 2 { queue.indexBacklog() }
    }

    /// Notes that the log wrote up to `position`.
    mutating func advance(to position: LogPosition) {
        activeSegment = max(activeSegment, position.segment)
        logEnd = max(logEnd, position)
    }
}
