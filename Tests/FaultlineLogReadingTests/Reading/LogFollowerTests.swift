import FaultlineLogReading
import FaultlineRecords
import FaultlineReporting
import Foundation
import TestSupport
import Testing

/// `tail -f` reads what the app appends: a line still being written waits for its end, and a rotation starts over.
@Suite struct LogFollowerTests {
    @Test func appendedEventsAreReadOnceAndARotationStartsOver() throws {
        let temporary = try TemporaryDirectory("follow")
        defer { temporary.remove() }
        let directory = temporary.url
        let log = directory.appendingPathComponent("events.jsonl")
        let events = (0..<4).map { _ in SentryEvent(level: .error) }
        let lines = events.map { EventEncoder.encode($0) + Data("\n".utf8) }
        try lines[0].write(to: log)

        // Given a follower started after the first event
        var follower = LogFollower(url: log)
        var read: [String] = []

        // When half a line is appended, then the rest of it
        try Self.append(lines[1].prefix(40), to: log)
        follower.readNew { record, _ in read.append(record.eventID) }
        #expect(read.isEmpty)
        try Self.append(lines[1].dropFirst(40), to: log)
        follower.readNew { record, _ in read.append(record.eventID) }
        #expect(read == [events[1].eventID])

        // And when an event is appended, then the log rotates and a new file starts, before the follower reads again
        try Self.append(lines[2], to: log)
        try FileManager.default.moveItem(at: log, to: directory.appendingPathComponent("events-1.jsonl"))
        try lines[3].write(to: log)
        follower.readNew { record, _ in read.append(record.eventID) }

        // Then every new event was read once, in order
        #expect(read == events[1...].map(\.eventID))
    }

    @Test func aLogThatRotatesWhileItIsFollowedLosesNoEvent() async throws {
        // Given a log of 4 KiB files followed from the start
        let temporary = try TemporaryDirectory("follow")
        defer { temporary.remove() }
        let directory = temporary.url
        let log = try EventLog(configuration: .init(directory: directory, maximumFileSize: 4096))
        var follower = LogFollower(url: log.configuration.activeFile)
        var read: [String] = []

        // When 300 events are appended, about 10 to a file, and the follower reads after every 7
        var written: [String] = []
        for index in 0..<300 {
            var event = SentryEvent(level: .error)
            event.message = "event \(index) " + String(repeating: "x", count: 300)
            try await log.append(EventEncoder.encode(event))
            written.append(event.eventID)
            if index % 7 == 6 { follower.readNew { record, _ in read.append(record.eventID) } }
        }
        follower.readNew { record, _ in read.append(record.eventID) }

        // Then every event was read once, in order, across the rotations
        #expect(await log.statistics.rotations >= 25)
        #expect(read == written, "\(read.count) of \(written.count) read")
    }

    private static func append(_ data: Data, to url: URL) throws {
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: data)
    }
}
