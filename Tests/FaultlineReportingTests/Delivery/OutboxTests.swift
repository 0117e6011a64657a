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

    @Test func theFilesOfRemovedEnvelopesAreWrittenOverByTheNextAndDeletedOnReopen() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var outbox = try Outbox(directory: directory.url, limits: .init(), unreadable: { _, _ in })
        let long = try DeliveryFixtures.envelope(String(repeating: "long message ", count: 40)).serialized()
        let short = try DeliveryFixtures.envelope("short").serialized()
        let removed = try (0..<3).map { _ in try outbox.store(long, category: .error).entry }
        for entry in removed { outbox.remove(entry) }
        #expect(try directory.names().count == 3)  // the spares

        // Shorter envelopes written over the longer ones' files hold exactly their own bytes
        let stored = try (0..<5).map { _ in try outbox.store(short, category: .error).entry }

        #expect(try stored.map { try outbox.contents(of: $0) } == Array(repeating: short, count: 5))
        #expect(try directory.names().count == 5)
        #expect(try directory.names().allSatisfy { !$0.hasPrefix(".") })
        outbox.remove(stored[0])
        let reopened = try Outbox(directory: directory.url, limits: .init(), unreadable: { _, _ in })
        #expect(reopened.entries.count == 4)
        #expect(try directory.names().count == 4)
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
