import FaultlineRecords
import Foundation
import TestSupport
import Testing

@testable import FaultlineReporting

/// The durable queue over a reporter's log: lines waiting, being sent and done, a cursor past the oldest done that
/// names the done lines after it, and the segments the log evicts counted once.
@Suite struct DurableQueueTests {
    @Test func aSegmentTheLogEvictedCountsItsWaitingLinesOnceAndRefusesToRetryTheOneBeingSent() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // Given four logged lines in two segments, the first being sent
        let configuration = EventLog.Configuration(directory: directory.url, maximumFileSize: 100)
        let log = try EventLog(configuration: configuration)
        var queue = try LogQueue(
            kind: .events, log: configuration,
            cursorFile: directory.file("cursor.json"),
            indexLimit: 10_000)
        var positions: [LogPosition] = []
        for number in 0..<4 {
            let line = Data(#"{"event_id":"e\#(number)","pad":"\#(String(repeating: "x", count: 20))"}"#.utf8)
            let position = try await log.append(line)
            positions.append(position)
            queue.append(line, at: position, eventID: nil)
        }
        try await log.close()
        #expect(positions.map(\.segment) == [1, 1, 2, 2])
        let sending = try #require(queue.next { _ in true })

        // When the log says it evicted segment 1, and says it again
        let evicted = queue.evict([1])
        let evictedAgain = queue.evict([1])

        // Then its waiting line is counted once, the one being sent is not retried, and segment 2's lines wait
        #expect(evicted == 1)
        #expect(evictedAgain == 0)
        #expect(queue.retry(sending) == false)
        #expect(queue.pendingCount == 2)
        #expect(queue.next { _ in true }.map { queue.record($0).position } == positions[2])
    }

    @Test func aReopenedLogQueueDoesNotSendAgainTheLinesItsCursorSaysAreDone() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // Given a queue of three logged lines, being sent, of which the first and the third were delivered
        let configuration = EventLog.Configuration(directory: directory.url)
        let log = try EventLog(configuration: configuration)
        let cursorFile = directory.file("cursor.json")
        var queue = try LogQueue(
            kind: .events, log: configuration, cursorFile: cursorFile, indexLimit: 10_000)
        let lines = (0..<3).map { Data(#"{"event_id":"e\#($0)"}"#.utf8) }
        for line in lines { queue.append(line, at: try await log.append(line), eventID: nil) }
        let sent = [queue.next { _ in true }, queue.next { _ in true }, queue.next { _ in true }].compactMap { $0 }
        queue.remove(sent[0])
        queue.remove(sent[2])

        // When its cursor is stored and it is opened again, as after a crash
        try queue.storeCursor()
        try await log.close()
        var reopened = try LogQueue(
            kind: .events, log: configuration, cursorFile: cursorFile, indexLimit: 10_000)

        // Then the cursor named the third as done, and only the second waits
        #expect(try DeliveryCursor.stored(in: cursorFile)?.done?.count == 1)
        #expect(reopened.pendingCount == 1)
        let entry = try #require(reopened.next { _ in true })
        #expect(try reopened.contents(of: entry) == lines[1])
        #expect(reopened.next { _ in true } == nil)
    }
}
