import FaultlineRecords
import Foundation
import TestSupport
import Testing

/// The event log writes whole lines, one per event, refuses lines that would break that, cuts off a line a crash cut
/// short, and keeps every line whole under concurrent appends.
@Suite struct EventLogTests {
    @Test func eachLineIsAppendedWholeAndEndsWithANewline() async throws {
        // Given a log in a directory that does not exist yet
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let logDirectory = directory.file("nested/logs")
        let log = try EventLog(configuration: .init(directory: logDirectory))

        // When three lines are appended
        for line in [#"{"a":1}"#, #"{"b":"만료"}"#, #"{"c":3}"#] { try await log.append(Data(line.utf8)) }

        // Then the active file holds exactly them, and it is the log's only file
        let active = logDirectory.appendingPathComponent("events.jsonl")
        #expect(try String(contentsOf: active, encoding: .utf8) == "{\"a\":1}\n{\"b\":\"만료\"}\n{\"c\":3}\n")
        #expect(EventLog.files(in: logDirectory) == [active])
        #expect(log.configuration.activeFile == active)
        let statistics = await log.statistics
        #expect(statistics.linesWritten == 3)
        #expect(statistics.rotations == 0)
    }

    @Test func aLineContainingANewlineIsRejectedAndNothingIsWritten() async throws {
        // Given a log with one line
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = try EventLog(configuration: .init(directory: directory.url))
        try await log.append(Data(#"{"a":1}"#.utf8))

        // When a pretty-printed event and an empty line are appended
        await #expect(throws: EventLogError.lineContainsNewline(offset: 1)) {
            try await log.append(Data("{\n  \"b\": 2\n}".utf8))
        }
        await #expect(throws: EventLogError.emptyLine) {
            try await log.append(Data())
        }

        // Then both are refused with a message that says how to fix it, and the file is as it was
        #expect(EventLogError.lineContainsNewline(offset: 1).description.contains("compact JSON"))
        #expect(try String(contentsOf: directory.file("events.jsonl"), encoding: .utf8) == "{\"a\":1}\n")
        #expect(await log.statistics.linesWritten == 1)
    }

    @Test func aSecondLogOnTheSameFileIsRefusedUntilTheFirstCloses() async throws {
        // Given a log that is open
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let first = try EventLog(configuration: .init(directory: directory.url))
        try await first.append(Data(#"{"a":1}"#.utf8))

        // When a second log opens the same file, and then another after the first closed
        let refusal = #expect(throws: EventLogError.self) {
            try EventLog(configuration: .init(directory: directory.url))
        }
        try await first.close()
        let second = try EventLog(configuration: .init(directory: directory.url))
        try await second.append(Data(#"{"b":2}"#.utf8))

        // Then the second was refused with the reason, the third writes, and a log of another name beside them too
        #expect("\(refusal.map(String.init(describing:)) ?? "")".contains("is written by another process"))
        let other = try EventLog(configuration: .init(directory: directory.url, fileName: "transactions"))
        try await other.append(Data(#"{"t":1}"#.utf8))
        #expect(try String(contentsOf: directory.file("events.jsonl"), encoding: .utf8) == "{\"a\":1}\n{\"b\":2}\n")
    }

    @Test func aLineAnotherProgramLeavesUnfinishedIsEndedBeforeTheNextLine() async throws {
        // Given a log with a line, and a program that appends half a line to its file while it is open
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = try EventLog(configuration: .init(directory: directory.url))
        try await log.append(Data(#"{"a":1}"#.utf8))
        let active = try FileHandle(forWritingTo: directory.file("events.jsonl"))
        try active.seekToEnd()
        try active.write(contentsOf: Data(#"{"half":"#.utf8))
        try active.close()

        // When the log appends its next line
        let position = try await log.append(Data(#"{"b":2}"#.utf8))

        // Then that line is whole, on a line of its own, where its position says
        let text = try String(contentsOf: directory.file("events.jsonl"), encoding: .utf8)
        #expect(text == "{\"a\":1}\n{\"half\":\n{\"b\":2}\n")
        #expect(position.offset == "{\"a\":1}\n{\"half\":\n".utf8.count)
    }

    @Test func aLineCutShortByACrashIsCutOffWhenTheLogOpensSoNothingHalfWrittenIsEverRead() async throws {
        // Given an active file whose last line a crash cut short
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let active = directory.file("events.jsonl")
        try Data("{\"a\":1}\n{\"b\":".utf8).write(to: active)

        // When a log opens it and appends a line
        let log = try EventLog(configuration: .init(directory: directory.url))
        let position = try await log.append(Data(#"{"c":3}"#.utf8))

        // Then the cut line is gone, counted, and the new line starts where it started
        #expect(try String(contentsOf: active, encoding: .utf8) == "{\"a\":1}\n{\"c\":3}\n")
        #expect(await log.statistics.cutOffBytes == 5)
        #expect(position == LogPosition(segment: 1, offset: 8))
    }

    @Test func anActiveFileThatEndsWithANewlineIsLeftAsItWasWhenTheLogOpens() async throws {
        // Given an intact active file
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let active = directory.file("events.jsonl")
        try Data("{\"a\":1}\n".utf8).write(to: active)

        // When a log opens it and appends a line
        let log = try EventLog(configuration: .init(directory: directory.url))
        try await log.append(Data(#"{"b":2}"#.utf8))

        // Then no empty line was added
        #expect(try String(contentsOf: active, encoding: .utf8) == "{\"a\":1}\n{\"b\":2}\n")
    }

    @Test func concurrentAppendsWriteEveryLineWholeAndExactlyOnce() async throws {
        // Given a log whose files rotate every 64 KiB
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = try EventLog(configuration: .init(directory: directory.url, maximumFileSize: 64 * 1024))

        // When 8 tasks append 500 distinct lines each, at the same time
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<500 {
                        let padding = String(repeating: "x", count: (task * 500 + index) % 97)
                        try await log.append(Data(#"{"task":\#(task),"index":\#(index),"pad":"\#(padding)"}"#.utf8))
                    }
                }
            }
            try await group.waitForAll()
        }

        // Then the log's files hold exactly the 4000 lines, each whole, none twice, each task's in its order
        let lines = try LogContents.lines(in: directory.url)
        #expect(lines.count == 4000)
        #expect(Set(lines).count == 4000)
        let decoded = try lines.map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
        for task in 0..<8 {
            #expect(decoded.filter { $0.task == task }.map(\.index) == Array(0..<500))
        }
        let statistics = await log.statistics
        #expect(statistics.linesWritten == 4000)
        #expect(statistics.rotations > 0)
        #expect(statistics.rotations == EventLog.files(in: directory.url).count - 1)
    }

    @Test func appendingToAClosedLogFailsAndSaysSo() async throws {
        // Given a closed log
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = try EventLog(configuration: .init(directory: directory.url))
        try await log.append(Data(#"{"a":1}"#.utf8))
        try await log.close()

        // When a line is appended, or the file rotated
        let active = directory.file("events.jsonl")
        await #expect(throws: EventLogError.closed(active)) { try await log.append(Data(#"{"b":2}"#.utf8)) }
        await #expect(throws: EventLogError.closed(active)) { try await log.rotate() }

        // Then nothing changed, and closing again does nothing
        #expect(try String(contentsOf: active, encoding: .utf8) == "{\"a\":1}\n")
        try await log.close()
    }

    @Test func aDirectoryThatCannotBeCreatedFailsWithThePathAndTheReason() throws {
        // Given a regular file where the log's directory should be
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Data().write(to: directory.file("occupied"))

        // When a log is opened there
        // Then it fails, naming the operation and the path
        do {
            _ = try EventLog(configuration: .init(directory: directory.file("occupied")))
            Issue.record("the log opened")
        } catch {
            guard case .fileOperationFailed(let operation, let path, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(operation == "create the directory")
            #expect(path == directory.file("occupied").path)
        }
    }

    private struct Line: Decodable {
        let task: Int
        let index: Int
    }
}
