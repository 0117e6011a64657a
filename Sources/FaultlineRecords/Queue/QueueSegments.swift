import Foundation

/// The files a ``DurableQueue`` keeps its records in, and how a record is framed there: what differs between the
/// outbox (``EnvelopeSegments``: envelopes it appends itself, framed by their length) and a reporter's delivery over
/// its log (``LogSegments``: the lines the event log appended, rotated into gzip files). The queue hands out the
/// bytes of a record; its owner puts them in the envelope that carries them.
package protocol QueueSegments {
    /// What records are rate-limited and counted by: the SDK's Sentry data categories.
    associatedtype Category: Hashable & Sendable

    /// Where the next record will start: what the cursor says when every record is done.
    var end: LogPosition { get }
    /// Records that wait but are not in the queue's memory yet (a log's backlog, read from the log as the queue
    /// drains); 0 when the queue holds every record.
    var unindexedCount: Int { get }

    /// The bytes of `record`, read back from its segment.
    mutating func contents(of record: QueueRecord<Category>) throws -> Data
    /// Notes that `record` is done, delivered, dropped or evicted.
    mutating func didFinish(_ record: QueueRecord<Category>)
    /// Brings records from the files into `queue`'s memory before it hands out the next one; nothing when every
    /// record is there.
    static func fill(_ queue: inout DurableQueue<Self>)
}

/// A stored record of a ``DurableQueue``.
package struct QueueRecord<Category: Hashable & Sendable> {
    enum State { case waiting, sending, done }
    /// Where it starts in its segment.
    package let position: LogPosition
    /// The length of what it holds, without its framing.
    package let length: Int32
    /// The category it is rate-limited and counted by.
    package let category: Category
    /// The bytes of its framing before what it holds: 0 for a line of a log.
    package let headerSize: UInt8
    /// Its event's id, when the one who appended it said it.
    package let eventID: String?
    var state = State.waiting
}

/// A record of a ``DurableQueue`` handed out to be sent.
package struct QueueEntry<Category: Hashable & Sendable>: Hashable, Sendable {
    /// Its number in the queue: records are numbered in the order they were stored.
    package let serial: Int
    /// The category it is rate-limited and counted by.
    package let category: Category
}
