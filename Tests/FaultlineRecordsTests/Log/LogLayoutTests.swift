import FaultlineRecords
import Foundation
import TestSupport
import Testing

/// One layout for a log directory: the files the reporter writes are where the layout says, and a reader listing the
/// directory finds each of them.
@Suite struct LogLayoutTests {
    @Test func aReaderFindsEveryFileTheLogWroteOldestFirst() async throws {
        // Given a log that rotated twice, a log copied in beside it, and the outbox's envelopes, one being written
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = try EventLog(configuration: .init(directory: directory.url, maximumFileSize: 1000))
        for number in 0..<25 { try await log.append(Data(EventLogRotationTests.line(number).utf8)) }
        try await log.close()
        let layout = LogLayout(directory.url)
        try FileManager.default.createDirectory(at: layout.outbox, withIntermediateDirectories: true)
        try Data().write(to: layout.outbox.appendingPathComponent("0001.envelope"))
        try Data().write(to: layout.outbox.appendingPathComponent(".0002.envelope"))
        try Data().write(to: directory.file("copied.jsonl"))

        // When the directory is listed for reading
        let files = layout.eventFiles()

        // Then the rotated files are the log's own in its order, the plain logs the copy and the active log, and the
        // envelopes the finished one
        let written = EventLog.files(in: directory.url)
        #expect(written.count == 3)
        #expect(files.rotatedLogs == Array(written.dropLast()))
        #expect(layout.activeLog == written.last)
        #expect(files.logs == [directory.file("copied.jsonl"), layout.activeLog])
        #expect(files.envelopes == [layout.outbox.appendingPathComponent("0001.envelope")])
    }

    @Test func theLogUsesTheLayoutsNames() {
        let url = URL(fileURLWithPath: "/var/lib/faultline")

        #expect(EventLog.Configuration(directory: url).activeFile.path == "/var/lib/faultline/events.jsonl")
        #expect(LogLayout(url).activeLog.path == "/var/lib/faultline/events.jsonl")
        #expect(LogLayout(url).outbox.path == "/var/lib/faultline/outbox")
        #expect(LogLayout(url).forwardQueues.path == "/var/lib/faultline/forward")
    }

    @Test func theDirectoryGivenWinsOverTheEnvironmentWhichWinsOverTheDefault() {
        #expect(LogLayout(path: "/a", environment: ["FAULTLINE_LOG_DIR": "/b"]).url.path == "/a")
        #expect(LogLayout(path: nil, environment: ["FAULTLINE_LOG_DIR": "/b"]).url.path == "/b")
        #expect(LogLayout(path: nil, environment: [:]).url.lastPathComponent == "faultline-logs")
    }
}
