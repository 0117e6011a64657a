import FaultlineLogReading
import FaultlineRecords
import FaultlineReporting
import FaultlineTriage
import Foundation
import TestSupport
import Testing

/// `tail` prints the latest events: the newest file first, older files only when it holds too few.
@Suite struct LatestEventsTests {
    @Test func theLatestEventsComeFromTheNewestFilesOldestFirst() throws {
        // Given a rotated log with four events and an active log with two, every other one a server failure
        let temporary = try TemporaryDirectory("latest")
        defer { temporary.remove() }
        let directory = temporary.url
        let events = (0..<6).map { index in
            var event = SentryEvent(level: .error, date: Date(timeIntervalSince1970: 1_795_000_000 + Double(index)))
            event.tags = ["error.kind": index.isMultiple(of: 2) ? "server" : "transport"]
            return event
        }
        let lines = events.map { EventEncoder.encode($0) + Data("\n".utf8) }
        try Gzip.compress(lines[0..<4].reduce(Data(), +))
            .write(to: directory.appendingPathComponent("events-20261101T000000.000Z-000001.jsonl.gz"))
        try (lines[4] + lines[5]).write(to: directory.appendingPathComponent("events.jsonl"))
        let files = try LogFile.all(in: directory)
        var servers = EventFilter()
        servers.kinds = ["server"]

        // Then the last two are the active log's, three reach into the rotated log, and filters apply
        #expect(
            LatestEvents(2, from: files, filter: EventFilter()).events.map(\.eventID)
                == [4, 5].map { events[$0].eventID })
        #expect(
            LatestEvents(3, from: files, filter: EventFilter()).events.map(\.eventID)
                == [3, 4, 5].map { events[$0].eventID })
        #expect(
            LatestEvents(2, from: files, filter: servers).events.map(\.eventID) == [2, 4].map { events[$0].eventID })
        #expect(LatestEvents(10, from: files, filter: EventFilter()).events.count == 6)
        #expect(LatestEvents(0, from: files, filter: EventFilter()).events.isEmpty)
    }
}
