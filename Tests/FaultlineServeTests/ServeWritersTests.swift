import FaultlineLogReading
import FaultlineRecords
import FaultlineReporting
import FaultlineTriage
import Foundation
import TestSupport
import Testing

/// One writer per log file: a second `faultline serve` on a log directory another serve writes is refused before it
/// listens, and a line another program leaves half-written while serve runs does not take serve's next event with
/// it.
@Suite struct ServeWritersTests {
    @Test func aSecondServeOnTheSameLogDirectoryIsRefused() async throws {
        // Given a serve writing a log directory
        let logs = try ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        let (process, port) = try await ServeFixture.launch(logs: logs)
        defer { process.terminate() }

        // When a second serve is started on it
        let second = try await BuiltFaultline.outcome(of: [
            "serve", "--port", "0", "--log-dir", logs.path, "--key", ServeFixture.publicKey, "--quiet",
        ])

        // Then it stops with the reason, and the first still accepts events
        #expect(second.status == 2)
        #expect(second.errors.contains("events.jsonl is written by another process"), "\(second.errors)")
        let fixture = ServeFixture(logs: logs, port: port)
        try await Self.send(eventID: "1d1e0c9b8a7f6e5d4c3b2a1908f7e6d5", to: fixture)
        process.terminate()
        #expect(try await process.exit().status == 0)
    }

    @Test func aLineAnotherProgramLeavesHalfWrittenDoesNotTakeServesNextEvent() async throws {
        // Given a serve that stored an event, and a program that appends half a line to its log
        let logs = try ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        let (process, port) = try await ServeFixture.launch(logs: logs)
        defer { process.terminate() }
        let fixture = ServeFixture(logs: logs, port: port)
        try await Self.send(eventID: "2d1e0c9b8a7f6e5d4c3b2a1908f7e6d5", to: fixture)
        let file = try FileHandle(forWritingTo: logs.appendingPathComponent("events.jsonl"))
        try file.seekToEnd()
        try file.write(contentsOf: Data(#"{"event_id":"half"#.utf8))
        try file.close()

        // When serve stores the next event
        try await Self.send(eventID: "3d1e0c9b8a7f6e5d4c3b2a1908f7e6d5", to: fixture)
        process.terminate()
        #expect(try await process.exit().status == 0)

        // Then both events read, and only the half line is skipped
        let scan = await LogScan(files: try LogFile.all(in: logs), filter: EventFilter())
        #expect(scan.events == 2)
        #expect(scan.counts.notJSON == 1)
    }

    private static func send(eventID: String, to serve: ServeFixture) async throws {
        let event: JSONValue = [
            "event_id": .string(eventID), "timestamp": "2026-12-01T20:00:00Z", "level": "error", "message": "boom",
        ]
        let envelope = Envelope(eventID: eventID, eventJSON: try JSONEncoder().encode(event), dsn: nil)
        let (status, reason) = try await serve.post(
            "/api/1/envelope/", body: envelope.serialized(), headers: ServeFixture.auth)
        #expect(status == 200, "\(reason)")
    }
}
