import FaultlineRecords
import Foundation

/// The files of one of a reporter's logs (its events, transactions or request outcomes: ``RecordKind``) as a
/// ``DurableQueue``'s segments, for its delivery: the log is the outbox, and each record is written once. The log
/// appends the lines and evicts its oldest files; the queue is told of both (``DurableQueue/append(_:at:eventID:trace:)``,
/// ``DurableQueue/evict(_:)``) and reads lines back by their positions, from the active file or a rotated gzip file
/// streamed a piece at a time.
///
/// At most ``indexLimit`` waiting lines are in the queue's memory (their positions, and the bytes of the newest up to
/// ``cacheBudget``); the lines after them, a backlog of an outage, are only counted by segment and read from the log
/// as the queue drains (`DurableQueue+Backlog.swift`), so memory does not grow with the backlog.
struct LogSegments: QueueSegments {
    /// The most bytes of lines kept in memory.
    static let cacheBudget = 4 * 1024 * 1024
    /// The most waiting lines indexed in memory: the uploader's ``DeliveryConfiguration/maxIndexedLines``.
    let indexLimit: Int

    /// What the log holds, which the envelopes that carry its lines are typed and counted by.
    let kind: RecordKind
    /// The destination, which the envelopes that carry the lines name.
    let dsn: DSN
    /// The trace header of each transaction appended in this run that waits, by its position: a transaction read
    /// back from the log after a restart gets one rebuilt from its line.
    var traces: [LogPosition: JSONValue] = [:]
    var reader: LogSegmentReader
    /// Where the line after the last line the queue was told of starts.
    var logEnd: LogPosition
    private(set) var activeSegment: Int
    /// Where the first waiting line that is not indexed starts; `nil` when every waiting line is indexed.
    var unindexedFrom: LogPosition?
    /// The waiting lines not indexed, by segment, and how many they are in all.
    var unindexedLines: [Int: Int] = [:]
    var unindexedCount = 0
    /// Lines found that cannot be sent (not an object on a line), not yet counted by the uploader.
    var skippedLines = 0

    init(kind: RecordKind, log: EventLog.Configuration, dsn: DSN, end: LogPosition, indexLimit: Int) {
        self.kind = kind
        self.dsn = dsn
        self.indexLimit = indexLimit
        self.reader = LogSegmentReader(log: log)
        self.logEnd = end
        self.activeSegment = end.segment
    }

    var end: LogPosition { unindexedFrom ?? logEnd }

    /// Reads the line of `record` back from the log.
    ///
    /// - Throws: ``LogSegmentReader/Failure``, ``LogSegmentReader/Failure/evicted`` when its file was evicted.
    mutating func contents(of record: QueueRecord) throws -> Data {
        try reader.line(at: record.position, length: Int(record.length), activeSegment: activeSegment)
    }

    /// An envelope of the record the line holds, for ``dsn``, an item of the kind's type: an event's and a
    /// transaction's name the event's id when it is known or found, and a transaction's carries its trace's dynamic
    /// sampling context.
    func envelope(of record: QueueRecord, bytes: Data, sentAt: Date, appending items: [Envelope.Item]) throws -> Data {
        var header: [String: JSONValue] = ["dsn": .string(dsn.description)]
        if kind != .outcomes, let eventID = record.eventID ?? JSONScanner.string(ofMember: "event_id", in: bytes) {
            header["event_id"] = .string(eventID)
        }
        if kind == .transactions, let trace = traces[record.position] ?? rebuiltTrace(of: bytes) {
            header["trace"] = trace
        }
        return Envelope(header: header, items: [Envelope.Item(type: kind.itemType, payload: bytes)] + items)
            .serialized(sentAt: sentAt)
    }

    /// The trace header of the transaction `line` holds, rebuilt from its event
    /// (``DynamicSamplingContext/init(recordedTransaction:publicKey:)``); `nil` when it names no trace.
    private func rebuiltTrace(of line: Data) -> JSONValue? {
        let names: Set = ["contexts", "release", "environment", "transaction"]
        guard let members = try? JSONValue.members(names, ofObjectParsing: line) ?? nil else { return nil }
        return DynamicSamplingContext(recordedTransaction: members, publicKey: dsn.publicKey)?.json
    }

    /// Forgets the trace header of `record`: the log deletes its files.
    mutating func didFinish(_ record: QueueRecord) {
        if kind == .transactions { traces[record.position] = nil }
    }

    /// Indexes lines of the backlog when the queue holds fewer than half of ``indexLimit``.
    static func fill(_ queue: inout DurableQueue<LogSegments>) {
        if queue.segments.unindexedFrom != nil, queue.count < queue.segments.indexLimit / 2 { queue.indexBacklog() }
    }

    /// Notes that the log wrote up to `position`.
    mutating func advance(to position: LogPosition) {
        activeSegment = max(activeSegment, position.segment)
        logEnd = max(logEnd, position)
    }
}
