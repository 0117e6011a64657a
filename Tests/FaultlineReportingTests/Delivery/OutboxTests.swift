import Foundation
import Testing

@testable import FaultlineReporting

/// The outbox on disk: one envelope per file, oldest first, bounded, and robust to what a crash leaves.
@Suite struct OutboxTests {
    @Test func envelopesAreReadBackOldestFirstAfterAReopen() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var outbox = try Outbox(directory: directory.url, limits: .init(), unreadable: { _, _ in })
        let envelopes = try (0..<12).map { try DeliveryFixtures.envelope("event \($0)").serialized() }
        for envelope in envelopes { _ = try outbox.store(envelope, category: .error) }

        let reopened = try Outbox(directory: directory.url, limits: .init(), unreadable: { _, _ in })

        #expect(try reopened.entries.map { try reopened.contents(of: $0) } == envelopes)
        #expect(reopened.totalBytes == envelopes.map(\.count).reduce(0, +))
    }

    @Test func theByteLimitEvictsTheOldestAndRefusesAnEnvelopeLargerThanTheOutbox() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let envelope = try DeliveryFixtures.envelope().serialized()
        var outbox = try Outbox(
            directory: directory.url, limits: .init(maximumCount: 100, maximumBytes: envelope.count * 3),
            unreadable: { _, _ in })
        let first = try outbox.store(envelope, category: .error).entry
        for _ in 0..<2 { _ = try outbox.store(envelope, category: .error) }

        let fourth = try outbox.store(envelope, category: .error)

        #expect(fourth.evicted == [first])
        #expect(outbox.entries.count == 3)
        #expect(throws: OutboxError.envelopeTooLarge(size: envelope.count * 4, limit: envelope.count * 3)) {
            try outbox.store(Data(repeating: 0x41, count: envelope.count * 4), category: .error)
        }
    }

    @Test func corruptFilesAndHalfWrittenTemporaryFilesAreRemovedOnOpen() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let good = try DeliveryFixtures.envelope().serialized()
        try good.write(to: directory.file("1700000000.000001-000001-a.envelope"))
        try Data("{\"event_id\":\"x\"}\n{\"type\":\"event\",\"length\":999}\n{}".utf8)
            .write(to: directory.file("1700000000.000002-000002-b.envelope"))
        try Data([0xFF, 0xFE, 0x00]).write(to: directory.file("1700000000.000003-000003-c.envelope"))
        try good.prefix(10).write(to: directory.file(".1700000000.000004-000004-d.envelope.tmp"))
        var unreadable: [String] = []

        let outbox = try Outbox(directory: directory.url, limits: .init()) { url, _ in
            unreadable.append(url.lastPathComponent)
        }

        #expect(outbox.entries.map(\.name) == ["1700000000.000001-000001-a.envelope"])
        #expect(unreadable == ["1700000000.000002-000002-b.envelope", "1700000000.000003-000003-c.envelope"])
        #expect(try directory.names() == ["1700000000.000001-000001-a.envelope"])
    }
}
