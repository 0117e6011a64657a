import FaultlineLogReading
import FaultlineRecords
import FaultlineReporting
import Foundation
import TestSupport
import Testing

/// A log directory with every kind of damage, read with exact counts: nothing is fatal, nothing is miscounted.
@Suite struct LogReaderTests {
    @Test func aDamagedLogDirectoryIsReadWithExactCounts() throws {
        let temporary = try TemporaryDirectory("triage")
        defer { temporary.remove() }
        let directory = temporary.url
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("outbox"), withIntermediateDirectories: true)
        let events = (0..<8).map { Self.event(at: Double($0)) }
        let lines = events.map { EventEncoder.encode($0) + Data("\n".utf8) }

        // A rotated log of two gzip members; another whose second member is cut inside its header
        try (Gzip.compress(lines[0] + lines[1]) + Gzip.compress(lines[2]))
            .write(to: directory.appendingPathComponent("events-20261101T000000.000Z-000001.jsonl.gz"))
        try (Gzip.compress(lines[3]) + Gzip.compress(lines[4]).prefix(5))
            .write(to: directory.appendingPathComponent("events-20261102T000000.000Z-000002.jsonl.gz"))
        // Data that is not gzip at all, after a good member
        try (Gzip.compress(lines[5]) + Data("not gzip".utf8))
            .write(to: directory.appendingPathComponent("events-20261103T000000.000Z-000003.jsonl.gz"))
        // The active log: good lines among garbage, a line too long to hold, and a last line cut short
        var active = lines[6]
        active += Data("garbage\n\n   \n".utf8)
        active += Data(#"{"event_id":"no time"}"#.utf8 + [0x0A])
        active += Data(#"{"event_id":7,"timestamp":"2026-11-01T00:00:00Z"}"#.utf8 + [0x0A])
        // Fields of the wrong type: the event is read without them
        active += Data(#"{"event_id":"typed","timestamp":"2026-11-01T00:00:00Z","release":5,"tags":"x"}"#.utf8 + [0x0A])
        active += Data(
            #"{"event_id":"e","timestamp":"2026-11-01T00:00:00Z","message":""#.utf8 + [0xFF, 0x22, 0x7D, 0x0A])
        active += Data(#"{"event_id":"e","timestamp":"2026-11-01T00:00:00Z","extra":""#.utf8)
        active += Data(repeating: UInt8(ascii: "x"), count: 17 * 1024 * 1024) + Data("\"}\n".utf8)
        active += lines[7]
        active += Data(#"{"event_id":"cut","timestamp":"2026-11-01T0"#.utf8)
        try active.write(to: directory.appendingPathComponent("events.jsonl"))
        try Data().write(to: directory.appendingPathComponent("empty.jsonl"))
        // An envelope in the outbox, and one that is not an envelope
        try Envelope(eventID: events[7].eventID, eventJSON: EventEncoder.encode(events[7]), dsn: nil).serialized()
            .write(to: directory.appendingPathComponent("outbox/0001.envelope"))
        try Data("{\"event_id\":".utf8).write(to: directory.appendingPathComponent("outbox/0002.envelope"))

        var reader = LogReader()
        var read: [String] = []
        for file in try LogFile.all(in: directory) {
            reader.read(file) { read.append($0.eventID) }
        }

        #expect(read == [0, 1, 2, 3, 5, 6].map { events[$0].eventID } + ["typed"] + [7, 7].map { events[$0].eventID })
        var expected = ReadCounts()
        expected.files = 7
        expected.lines = 14  // tooLong lines never reach the parser
        expected.events = 9
        expected.ignoredFields = 2
        expected.notUTF8 = 1
        expected.notJSON = 2
        expected.notAnEvent = 2
        expected.tooLong = 1
        expected.truncatedGzip = 1
        expected.corruptGzip = 1
        expected.unreadableEnvelopes = 1
        expected.bytes = reader.counts.bytes
        #expect(reader.counts == expected)
    }

    @Test func aMissingDirectoryIsAClearError() {
        #expect(throws: TriageError.missingDirectory("/nonexistent/logs")) {
            try LogFile.all(in: URL(fileURLWithPath: "/nonexistent/logs"))
        }
    }

    private static func event(at offset: Double) -> SentryEvent {
        var event = SentryEvent(level: .error, date: Date(timeIntervalSince1970: 1_795_000_000 + offset))
        event.tags = ["error.kind": "transport"]
        event.breadcrumbs = .init((0..<30).map { Breadcrumb(message: "step \($0)") })
        return event
    }
}
