import Foundation
import TestSupport
import Testing

@testable import FaultlineRecords

/// Lines are read back from a real log by their positions, from rotated gzip files streamed a piece at a time and from
/// the active file: in order, out of order (which starts a file over), across pieces, and with a clear failure for a
/// file cut short or evicted.
@Suite struct LogSegmentReaderTests {
    /// A log whose files rotate at 256 KiB, holding `count` lines of about 1 KB, each with its position.
    struct WrittenLog {
        let directory: TemporaryDirectory
        let configuration: EventLog.Configuration
        var lines: [(position: LogPosition, bytes: Data)] = []
        var activeSegment: Int { lines.last?.position.segment ?? 0 }

        init(count: Int, longLineEvery: Int = 0) async throws {
            directory = try TemporaryDirectory()
            configuration = EventLog.Configuration(directory: directory.url, maximumFileSize: 256 * 1024)
            let log = try EventLog(configuration: configuration)
            for number in 0..<count {
                // Every `longLineEvery`th line is longer than a piece the reader reads (40 KB).
                let padding = longLineEvery > 0 && number % longLineEvery == 0 ? 40_000 : 1000
                let bytes = Data(#"{"n":\#(number),"pad":"\#(String(repeating: "x", count: padding))"}"#.utf8)
                lines.append((try await log.append(bytes), bytes))
            }
            try await log.close()
        }

        func rotatedFile(of segment: Int) throws -> URL {
            try #require(
                EventLog.rotatedFiles(in: directory.url, logName: configuration.fileName)
                    .first { $0.rotation.sequence == segment && $0.stage == .compressed }?.url)
        }
    }

    @Test func linesReadInOrderAreTheLinesWrittenInEverySegment() async throws {
        // Given 1000 lines of about 1 KB (4 segments, 3 of them rotated and compressed), some of 40 KB
        let log = try await WrittenLog(count: 1000, longLineEvery: 97)
        defer { log.directory.remove() }
        #expect(Set(log.lines.map(\.position.segment)).count >= 4)

        // When each is read back by its position, oldest first
        var reader = LogSegmentReader(log: log.configuration)
        for (position, bytes) in log.lines {
            let line = try reader.line(at: position, length: bytes.count, activeSegment: log.activeSegment)

            // Then each is the line written there
            #expect(line == bytes, "segment \(position.segment) offset \(position.offset)")
        }
    }

    @Test func aLineBeforeTheWindowStartsTheFileOver() async throws {
        // Given a rotated segment of 250 lines
        let log = try await WrittenLog(count: 300)
        defer { log.directory.remove() }
        let first = log.lines.filter { $0.position.segment == log.lines[0].position.segment }
        var reader = LogSegmentReader(log: log.configuration)

        // When its last line is read, then its first (as when a failed send is retried), then one in the middle
        for index in [first.count - 1, 0, first.count / 2] {
            let (position, bytes) = first[index]
            let line = try reader.line(at: position, length: bytes.count, activeSegment: log.activeSegment)

            // Then each is the line written there
            #expect(line == bytes)
        }
    }

    @Test func aPositionThatIsNotAWholeLineIsUnreadable() async throws {
        let log = try await WrittenLog(count: 300)
        defer { log.directory.remove() }
        var reader = LogSegmentReader(log: log.configuration)
        let (position, bytes) = log.lines[3]

        // A position one byte into a line, and a length one byte short, are refused, not read as lines
        let shifted = LogPosition(segment: position.segment, offset: position.offset + 1)
        #expect(throws: LogSegmentReader.Failure.self) {
            try reader.line(at: shifted, length: bytes.count - 1, activeSegment: log.activeSegment)
        }
        #expect(throws: LogSegmentReader.Failure.self) {
            try reader.line(at: position, length: bytes.count - 1, activeSegment: log.activeSegment)
        }
    }

    @Test func everyLineOfASegmentIsHandedOverFromAnOffset() async throws {
        // Given a rotated segment and the active file
        let log = try await WrittenLog(count: 600, longLineEvery: 50)
        defer { log.directory.remove() }
        let reader = LogSegmentReader(log: log.configuration)

        for segment in [log.lines[0].position.segment, log.activeSegment] {
            let written = log.lines.filter { $0.position.segment == segment }
            let from = written[7].position.offset

            // When its lines from the 8th on are read
            var read: [(LogPosition, Data)] = []
            try reader.forEachLine(of: segment, from: from, isActive: segment == log.activeSegment) {
                read.append(($0, $1))
                return true
            }

            // Then they are the lines written there, with their positions
            #expect(read.map(\.0) == written.dropFirst(7).map(\.position))
            #expect(read.map(\.1) == written.dropFirst(7).map(\.bytes))
        }
    }

    @Test func aRotatedFileCutShortFailsPastTheCutAndReadsBeforeIt() async throws {
        // Given a rotated file cut to half its size
        let log = try await WrittenLog(count: 300)
        defer { log.directory.remove() }
        let segment = log.lines[0].position.segment
        let file = try log.rotatedFile(of: segment)
        let gzip = try Data(contentsOf: file)
        try gzip.prefix(gzip.count / 2).write(to: file)
        let written = log.lines.filter { $0.position.segment == segment }
        var reader = LogSegmentReader(log: log.configuration)

        // Then its first line is read, and its last fails as unreadable
        #expect(
            try reader.line(at: written[0].position, length: written[0].bytes.count, activeSegment: log.activeSegment)
                == written[0].bytes)
        let last = try #require(written.last)
        do {
            _ = try reader.line(at: last.position, length: last.bytes.count, activeSegment: log.activeSegment)
            Issue.record("a line past the cut was read")
        } catch {
            guard case .unreadable = error else {
                Issue.record("expected unreadable, got \(error)")
                return
            }
        }
    }

    @Test func aLineOfADeletedSegmentIsEvicted() async throws {
        let log = try await WrittenLog(count: 300)
        defer { log.directory.remove() }
        let (position, bytes) = log.lines[0]
        try FileManager.default.removeItem(at: try log.rotatedFile(of: position.segment))
        var reader = LogSegmentReader(log: log.configuration)

        do {
            _ = try reader.line(at: position, length: bytes.count, activeSegment: log.activeSegment)
            Issue.record("a line of a deleted file was read")
        } catch {
            guard case .evicted = error else {
                Issue.record("expected evicted, got \(error)")
                return
            }
        }
    }
}
