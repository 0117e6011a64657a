import FaultlineLogReading
import FaultlineRecords
import Foundation
import TestSupport
import Testing

@testable import FaultlineReporting

/// The outbox on disk: envelopes appended to segment files, sent oldest first from a stored cursor, bounded by whole
/// segments, and robust to what a crash leaves.
@Suite struct OutboxTests {
    @Test func envelopesOfManyLinesAndBinaryAttachmentsAreReadBackOldestFirstAfterAReopen() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // Given an outbox that stored events and an envelope with a binary attachment, and was not closed
        var outbox = try Outbox(directory: directory.url, limits: .init(), unreadable: { _, _ in })
        var envelopes = try (0..<12).map { try DeliveryFixtures.envelope("event \($0)").serialized() }
        let binary = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 * 7) })
        envelopes.append(Envelope(header: [:], items: [.init(type: "attachment", payload: binary)]).serialized())
        for envelope in envelopes { _ = try outbox.store(envelope, category: try DataCategory.rateLimiting(envelope)) }

        // When it is opened again
        var reopened = try Outbox(directory: directory.url, limits: .init(), unreadable: { _, _ in })

        // Then every envelope waits, read back from the segment in the order it was stored, with its category
        #expect(reopened.count == 13)
        #expect(reopened.segments.totalBytes == envelopes.map(\.count).reduce(0, +))
        let entries = Self.takeAll(&reopened)
        #expect(try entries.map { try reopened.contents(of: $0) } == envelopes)
        #expect(entries.map(\.category) == Array(repeating: .error, count: 12) + [.attachment])
    }

    @Test func eachRecordKeepsWhenItWasStoredAndRecordsOfAnEarlierVersionWithoutItAreRead() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // Given a segment an earlier version wrote: records without the time they were stored
        let old = try (0..<2).map { try DeliveryFixtures.envelope("old \($0)").serialized() }
        let untimed = old.map { envelope in
            var record = Data()
            withUnsafeBytes(of: UInt32(envelope.count).littleEndian) { record.append(contentsOf: $0) }
            record.append(UInt8(DataCategory.error.rawValue.utf8.count))
            record.append(contentsOf: DataCategory.error.rawValue.utf8)
            return record + envelope
        }
        try untimed.reduce(Data(), +).write(to: directory.file(OutboxSegment.fileName(1)))
        #expect(DeliveryBacklog.inOutbox(directory.url) == (2, old.map(\.count).reduce(0, +), nil))

        // When this version opens the outbox and stores an envelope
        let before = Date()
        var outbox = try Outbox(directory: directory.url, limits: .init(), unreadable: { _, _ in })
        let new = try DeliveryFixtures.envelope("new").serialized()
        _ = try outbox.store(new, category: .error)
        let after = Date()
        outbox.closeFiles()

        // Then the new record holds the time it was stored, to the millisecond, which is the oldest known
        let waiting = DeliveryBacklog.inOutbox(directory.url)
        #expect(waiting.envelopes == 3)
        let oldest = try #require(waiting.oldest)
        #expect(oldest.timeIntervalSince(before) > -0.001 && after.timeIntervalSince(oldest) > -0.001)
        // and every envelope, old and new, is read back as it was stored
        var reopened = try Outbox(directory: directory.url, limits: .init(), unreadable: { _, _ in })
        let entries = Self.takeAll(&reopened)
        #expect(try entries.map { try reopened.contents(of: $0) } == old + [new])
    }

    @Test func aRecordACrashCutShortIsCutOffWhenTheOutboxIsOpened() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // Given a segment whose last record a crash cut short halfway through its envelope
        var outbox = try Outbox(directory: directory.url, limits: .init(), unreadable: { _, _ in })
        let envelopes = try (0..<3).map { try DeliveryFixtures.envelope("event \($0)").serialized() }
        for envelope in envelopes { _ = try outbox.store(envelope, category: .error) }
        let segment = try #require(try directory.names().first { $0.hasSuffix(".segment") })
        let whole = try Data(contentsOf: directory.file(segment))
        let torn = OutboxSegment.record(
            of: try DeliveryFixtures.envelope("torn").serialized(), category: "error", stored: Date())
        try (whole + torn.prefix(torn.count / 2)).write(to: directory.file(segment))

        // When the outbox is opened again and stores one more envelope
        var reopened = try Outbox(directory: directory.url, limits: .init(), unreadable: { _, _ in })
        _ = try reopened.store(envelopes[0], category: .error)

        // Then the torn record is cut off the file, and the three whole ones and the new one wait
        #expect(try Data(contentsOf: directory.file(segment)) == whole)
        let entries = Self.takeAll(&reopened)
        #expect(try entries.map { try reopened.contents(of: $0) } == envelopes + [envelopes[0]])
    }

    @Test func theLimitsEvictTheOldestWholeSegmentsAndSayWhatWaitedInThem() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // Given an outbox of at most 32 envelopes: segments of 2
        let envelope = try DeliveryFixtures.envelope().serialized()
        var outbox = try Outbox(
            directory: directory.url, limits: .init(maximumCount: 32, maximumBytes: 1 << 20), unreadable: { _, _ in })
        var evicted: [DataCategory] = []

        // When 40 are stored, the first being sent
        evicted += try outbox.store(envelope, category: .session)
        let sending = try #require(outbox.next { _ in true })
        for _ in 1..<40 { evicted += try outbox.store(envelope, category: .error) }

        // Then the oldest 4 segments were deleted: 7 waiting envelopes are returned to be counted, the one being sent
        // is dropped when its send fails, and 32 are left
        #expect(evicted == Array(repeating: .error, count: 7))
        #expect(outbox.retry(sending) == false)
        #expect(outbox.count == 32)
        #expect(try directory.names().filter { $0.hasSuffix(".segment") }.count == 16)
        #expect(throws: OutboxError.envelopeTooLarge(size: (1 << 20) + 1, limit: 1 << 20)) {
            try outbox.store(Data(repeating: 0x41, count: (1 << 20) + 1), category: .error)
        }
    }

    @Test func aReopenedOutboxSendsFromTheStoredCursorAndDeletesWhatWasSent() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // Given 30 envelopes in segments of 2, of which the first 20 were delivered but the 5th, still being sent
        let limits = OutboxLimits(maximumCount: 32, maximumBytes: 1 << 20)
        var outbox = try Outbox(directory: directory.url, limits: limits, unreadable: { _, _ in })
        let envelopes = try (0..<30).map { try DeliveryFixtures.envelope("event \($0)").serialized() }
        for envelope in envelopes { _ = try outbox.store(envelope, category: .error) }
        let sent = Self.takeAll(&outbox).prefix(20)
        for entry in sent where entry.serial != 4 { outbox.remove(entry) }

        // When the cursor is stored and the outbox opened again, as after a crash
        try outbox.storeCursor()
        var reopened = try Outbox(directory: directory.url, limits: limits, unreadable: { _, _ in })

        // Then the 5th waits, and the 10 not sent, but not the 6th, which shares the 5th's segment: the cursor says it
        // was delivered; the segments delivered in full are deleted, and once everything is sent and the outbox
        // closed, nothing is left
        #expect(
            try Self.takeAll(&reopened).map { try reopened.contents(of: $0) }
                == Array(envelopes[4...4] + envelopes[20...]))
        #expect(try directory.names().filter { $0.hasSuffix(".segment") }.first == OutboxSegment.fileName(3))
        var last = try Outbox(directory: directory.url, limits: limits, unreadable: { _, _ in })
        for entry in Self.takeAll(&last) { last.remove(entry) }
        last.closeFiles()
        #expect(try directory.names().isEmpty)
    }

    @Test func envelopeFilesOfAnEarlierVersionAreMovedInAndUnreadableOnesCounted() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // Given an outbox directory of one envelope per file, as an earlier version left it
        let good = try DeliveryFixtures.envelope().serialized()
        try good.write(to: directory.file("1700000000.000001-000001-a.envelope"))
        try Data("{\"event_id\":\"x\"}\n{\"type\":\"event\",\"length\":999}\n{}".utf8)
            .write(to: directory.file("1700000000.000002-000002-b.envelope"))
        try good.prefix(10).write(to: directory.file(".1700000000.000004-000004-d.envelope.tmp"))
        var unreadable: [String] = []

        // When the outbox is opened
        var outbox = try Outbox(directory: directory.url, limits: .init()) { url, _ in
            unreadable.append(url.lastPathComponent)
        }

        // Then the envelope waits in a segment, and the other files are deleted, the unreadable one reported
        #expect(try Self.takeAll(&outbox).map { try outbox.contents(of: $0) } == [good])
        #expect(unreadable == ["1700000000.000002-000002-b.envelope"])
        #expect(try directory.names() == [OutboxSegment.fileName(1)])
    }

    /// Every waiting envelope, marked as being sent, oldest first.
    private static func takeAll(_ outbox: inout Outbox) -> [QueueEntry<DataCategory>] {
        var entries: [QueueEntry<DataCategory>] = []
        while let entry = outbox.next(where: { _ in true }) { entries.append(entry) }
        return entries
    }
}
