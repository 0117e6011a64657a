import Foundation
import Testing

@testable import FaultlineReporting

/// The state machine the outbox and the log's delivery journal share: records waiting, being sent and done, a cursor
/// past the oldest done with the done records after it, and segments evicted whole.
@Suite struct DurableQueueTests {
    @Test func anEvictedSegmentCountsItsWaitingRecordsOnceAndRefusesToRetryTheOneBeingSent() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // Given records in segments 1 and 2, the first being sent
        var queue = DurableQueue(
            cursorFile: directory.file("cursor.json"), storedCursor: nil, cacheBudget: 1 << 20)
        for (segment, offset) in [(1, 0), (1, 100), (2, 0), (2, 100)] {
            queue.append(at: LogPosition(segment: segment, offset: offset), length: 99, category: .error)
        }
        let sending = try #require(queue.next { _ in true })

        // When segment 1 is evicted, and told again
        let evicted = queue.evict(before: 2)
        let evictedAgain = queue.evict(before: 2)

        // Then its waiting record is returned once, the one being sent is not retried, and segment 2's records wait
        #expect(evicted == [.error])
        #expect(evictedAgain.isEmpty)
        #expect(queue.evictedInFlight == 1)
        #expect(queue.retry(sending) == false)
        #expect(queue.evictedInFlight == 0)
        #expect(queue.count == 2)
        #expect(queue.next { _ in true }.map { queue.record($0).position } == LogPosition(segment: 2, offset: 0))
    }

    @Test func theCursorIsTheOldestRecordNotDoneWithTheDoneOnesAfterItAndIsStoredWhenItMoves() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // Given three records being sent, of which the first and the third were delivered
        let file = directory.file("cursor.json")
        var queue = DurableQueue(cursorFile: file, storedCursor: nil, cacheBudget: 1 << 20)
        let positions = (0..<3).map { LogPosition(segment: 1, offset: $0 * 100) }
        for position in positions { queue.append(at: position, length: 99, category: .error) }
        let entries = [queue.next { _ in true }, queue.next { _ in true }, queue.next { _ in true }].compactMap { $0 }
        queue.remove(entries[0])
        queue.remove(entries[2])
        let end = LogPosition(segment: 1, offset: 300)

        // When the cursor is stored
        try queue.storeCursor(orElse: end)

        // Then it stands at the second, and says the third is done; once the second is delivered it stands at the end
        #expect(try DeliveryCursor.stored(in: file) == DeliveryCursor(position: positions[1], done: [positions[2]]))
        queue.remove(entries[1])
        try queue.storeCursor(orElse: end)
        #expect(try DeliveryCursor.stored(in: file) == DeliveryCursor(position: end))
    }

    @Test func aReopenedJournalDoesNotSendAgainTheLinesItsCursorSaysAreDone() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // Given a journal of three logged lines, of which the first and the third were delivered
        let configuration = EventLog.Configuration(directory: directory.url)
        let log = try EventLog(configuration: configuration)
        let cursorFile = directory.file("cursor-test.json")
        var journal = try DeliveryJournal(log: configuration, cursorFile: cursorFile)
        let lines = (0..<3).map { Data(#"{"event_id":"e\#($0)"}"#.utf8) }
        for line in lines {
            journal.append(line, at: try await log.append(line), eventID: nil)
        }
        let sent = try [journal.nextLine(), journal.nextLine(), journal.nextLine()].compactMap { $0 }
        journal.acknowledge(sent[0].serial)
        journal.acknowledge(sent[2].serial)

        // When its cursor is stored and it is opened again, as after a crash
        try journal.storeCursor()
        try await log.close()
        var reopened = try DeliveryJournal(log: configuration, cursorFile: cursorFile)

        // Then only the second line waits
        #expect(reopened.pendingCount == 1)
        #expect(try reopened.nextLine()?.bytes == lines[1])
        #expect(try reopened.nextLine() == nil)
    }
}
