import FaultlineRecords
import Foundation
import TestSupport
import Testing

/// The active file rotates by size, by age and on demand into gzip files named by age; the oldest rotated files are
/// deleted to keep the log within its total size; no line is lost or cut on the way.
@Suite struct EventLogRotationTests {
    /// Line `number`: 99 bytes of JSON, 100 with its newline.
    static func line(_ number: Int) -> String {
        let start = #"{"n":\#(number),"pad":""#
        let padding = (0..<(99 - start.utf8.count - 2)).map { String(UnicodeScalar(97 + (number * 7 + $0) % 26)!) }
        return start + padding.joined() + #""}"#
    }

    @Test func theActiveFileRotatesBeforeALineWouldTakeItPastTheMaximumSize() async throws {
        // Given a log whose active file holds at most 1000 bytes: ten 100-byte lines
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = try EventLog(configuration: .init(directory: directory.url, maximumFileSize: 1000))

        // When 95 lines are appended
        let lines = (0..<95).map(Self.line)
        for line in lines { try await log.append(Data(line.utf8)) }

        // Then 9 rotated gzip files hold 10 lines each, oldest first, the active file the last 5, gzip accepts them,
        // and only their owner can read them
        let files = EventLog.files(in: directory.url)
        #expect(files.count == 10)
        #expect(files.last?.lastPathComponent == "events.jsonl")
        for (index, file) in files.enumerated() {
            #expect(try LogContents.lines(of: file) == Array(lines[(index * 10)..<min(index * 10 + 10, 95)]))
        }
        for file in files.dropLast() {
            #expect(file.lastPathComponent.hasSuffix(".jsonl.gz"))
            #expect(try await GzipTool.run(["-t", file.path]).status == 0)
        }
        for file in files {
            let permissions = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions]
            #expect((permissions as? Int) == 0o600, "\(file.lastPathComponent) is not private to its owner")
        }
        let rotatedNames = files.dropLast().map(\.lastPathComponent)
        #expect(rotatedNames == rotatedNames.sorted())
        #expect(try Self.logFiles(in: directory).count == 10)
        let statistics = await log.statistics
        #expect(statistics.linesWritten == 95)
        #expect(statistics.rotations == 9)
        #expect(statistics.evictedFiles == 0)
    }

    @Test func theActiveFileRotatesOnceItsFirstLineReachesTheMaximumAge() async throws {
        // Given a log whose files rotate after an hour, on a clock the test moves
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let clock = FakeClock(try Date("2026-11-22T10:00:00Z", strategy: .iso8601))
        let log = try EventLog(
            configuration: .init(directory: directory.url, maximumFileAge: .seconds(3600)), now: { clock.date })

        // When lines are appended at 10:00, 10:30, 11:01 (the first line is 61 minutes old), 12:00 and 12:02
        try await log.append(Data(#"{"at":"10:00"}"#.utf8))
        clock.advance(by: .seconds(30 * 60))
        try await log.append(Data(#"{"at":"10:30"}"#.utf8))
        clock.advance(by: .seconds(31 * 60))
        try await log.append(Data(#"{"at":"11:01"}"#.utf8))
        clock.advance(by: .seconds(59 * 60))
        try await log.append(Data(#"{"at":"12:00"}"#.utf8))
        clock.advance(by: .seconds(2 * 60))
        try await log.append(Data(#"{"at":"12:02"}"#.utf8))

        // Then the file rotated before 11:01 and before 12:02, each named by the UTC time of its last line
        #expect(
            try Self.logFiles(in: directory) == [
                "events-20261122T103000.000Z-000001.jsonl.gz", "events-20261122T120000.000Z-000002.jsonl.gz",
                "events.jsonl",
            ])
        let files = EventLog.files(in: directory.url)
        #expect(
            try files.map(LogContents.lines(of:)) == [
                [#"{"at":"10:00"}"#, #"{"at":"10:30"}"#], [#"{"at":"11:01"}"#, #"{"at":"12:00"}"#],
                [#"{"at":"12:02"}"#],
            ])
        #expect(await log.statistics.rotations == 2)
    }

    @Test func afterARestartTheActiveFileAgesFromWhenItWasCreated() async throws {
        // Given a line written by a log that was then closed
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let first = try EventLog(configuration: .init(directory: directory.url))
        try await first.append(Data(#"{"run":1}"#.utf8))
        try await first.close()

        // When a log opened 25 hours later appends a line
        let later = try EventLog(configuration: .init(directory: directory.url), now: { Date() + 25 * 3600 })
        try await later.append(Data(#"{"run":2}"#.utf8))

        // Then the first run's file rotated before the line was written
        let files = EventLog.files(in: directory.url)
        #expect(try files.map(LogContents.lines(of:)) == [[#"{"run":1}"#], [#"{"run":2}"#]])
        #expect(await later.statistics.rotations == 1)
    }

    @Test func theOldestRotatedFilesAreDeletedToKeepTheLogWithinItsTotalSizeAndAreCounted() async throws {
        // Given a log of 1000-byte files within 2400 bytes in total
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = try EventLog(
            configuration: .init(directory: directory.url, maximumFileSize: 1000, maximumTotalSize: 2400))

        // When 200 lines are appended, noting each rotated file's size as it appears
        var sizes: [String: Int] = [:]
        let lines = (0..<200).map(Self.line)
        for line in lines {
            try await log.append(Data(line.utf8))
            for name in try Self.logFiles(in: directory) where name.hasSuffix(".gz") && sizes[name] == nil {
                sizes[name] = try Data(contentsOf: directory.file(name)).count
            }
        }

        // Then the files deleted are the oldest, the counts and bytes are theirs, and what remains fits with room for
        // a full active file, with no room for the newest file deleted
        let remaining = try Self.logFiles(in: directory).filter { $0.hasSuffix(".gz") }
        let evicted = sizes.keys.filter { !remaining.contains($0) }.sorted()
        let statistics = await log.statistics
        #expect(sizes.count == 19)
        #expect(statistics.rotations == 19)
        #expect(!evicted.isEmpty)
        #expect(evicted.allSatisfy { name in remaining.allSatisfy { name < $0 } })
        #expect(statistics.evictedFiles == evicted.count)
        #expect(statistics.evictedBytes == evicted.map { sizes[$0]! }.reduce(0, +))
        let remainingBytes = remaining.map { sizes[$0]! }.reduce(0, +)
        #expect(remainingBytes + 1000 <= 2400)
        #expect(remainingBytes + sizes[evicted.last!]! + 1000 > 2400)

        // And the lines that remain are the newest, whole and in order: 10 per rotated file, 10 in the active file
        let kept = try LogContents.lines(in: directory.url)
        #expect(kept.count == remaining.count * 10 + 10)
        #expect(kept == Array(lines.suffix(kept.count)))
    }

    @Test func aTotalSmallerThanTheFileSizeHoldsBecauseTheActiveFileRotatesAtHalfOfIt() async throws {
        // Given a log of the default 8 MiB files within 200 000 bytes in total
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = try EventLog(configuration: .init(directory: directory.url, maximumTotalSize: 200_000))

        // When 2 MB of random hex lines are appended
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let noise = (0..<500).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }
            try await log.append(Data(#"{"noise":"\#(noise.joined())"}"#.utf8))
        }

        // Then the files on disk stay within the total
        let sizes = try Self.logFiles(in: directory).map { try Data(contentsOf: directory.file($0)).count }
        #expect(sizes.reduce(0, +) <= 200_000, "\(sizes)")
        #expect(await log.statistics.rotations > 10)
    }

    @Test func aForcedRotationRotatesAFileWithLinesAndLeavesAnEmptyOneAlone() async throws {
        // Given an empty log
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = try EventLog(configuration: .init(directory: directory.url))

        // When it is rotated empty, then after a line, then again
        try await log.rotate()
        let namesWhenEmpty = try Self.logFiles(in: directory)
        try await log.append(Data(#"{"a":1}"#.utf8))
        try await log.rotate()
        try await log.rotate()

        // Then only the rotation after the line made a file
        #expect(namesWhenEmpty == ["events.jsonl"])
        let files = EventLog.files(in: directory.url)
        #expect(files.count == 1)
        #expect(try files.map(LogContents.lines(of:)) == [[#"{"a":1}"#]])
        #expect(await log.statistics.rotations == 1)
    }

    @Test func aRotationInterruptedByACrashIsCompletedWhenTheLogOpens() async throws {
        // Given a rotation stopped before compression (a plain file and a partial temporary file), a rotation
        // stopped after compression (both files), and an active file
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let older = "events-20261122T090000.000Z-000007"
        let newer = "events-20261122T100000.000Z-000001"
        try Gzip.compress(Data("old\n".utf8)).write(to: directory.file("\(older).jsonl.gz"))
        try Data("old\n".utf8).write(to: directory.file("\(older).jsonl"))
        try Data("a\nb\n".utf8).write(to: directory.file("\(newer).jsonl"))
        try Data("partial".utf8).write(to: directory.file("\(newer).jsonl.gz.tmp"))
        try Data("c\n".utf8).write(to: directory.file("events.jsonl"))

        // When a log opens the directory, then rotates
        let log = try EventLog(configuration: .init(directory: directory.url))
        let namesWhenOpened = try Self.logFiles(in: directory)
        try await log.rotate()

        // Then each rotation has its compressed file only, no line is lost, and numbering continues after 7
        #expect(namesWhenOpened == ["\(older).jsonl.gz", "\(newer).jsonl.gz", "events.jsonl"])
        #expect(try LogContents.lines(in: directory.url) == ["old", "a", "b", "c"])
        #expect(try Self.logFiles(in: directory).last?.hasSuffix("-000008.jsonl.gz") == true)
    }

    @Test func theLogsFilesAreListedOldestFirstIgnoringOtherFiles() throws {
        // Given a log's files among others
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let names = [
            "events.jsonl",
            "events-20261122T100000.000Z-000002.jsonl.gz",
            "events-20261122T100000.000Z-000002.jsonl",  // compressed already: the .gz is listed
            "events-20261122T100000.000Z-000001.jsonl.gz",
            "events-20261122T100000.000Z-1000000.jsonl.gz",
            "events-20261122T100000.000Z-999999.jsonl",  // not compressed yet: listed
            "events-20261121T235959.999Z-000042.jsonl.gz",
            "events-20261122T100000.000Z-000003.jsonl.gz.tmp",
            "events-foo.jsonl",
            "events-2026.jsonl.gz",
            "events-20261122T100000.000Z-+1.jsonl.gz",
            "other.jsonl",
            "other-20261122T100000.000Z-000001.jsonl.gz",
        ]
        for name in names { try Data().write(to: directory.file(name)) }

        // When the files are listed
        let listed = EventLog.files(in: directory.url).map(\.lastPathComponent)

        // Then they are the log's rotated files by time and sequence, then the active file
        #expect(
            listed == [
                "events-20261121T235959.999Z-000042.jsonl.gz",
                "events-20261122T100000.000Z-000001.jsonl.gz",
                "events-20261122T100000.000Z-000002.jsonl.gz",
                "events-20261122T100000.000Z-999999.jsonl",
                "events-20261122T100000.000Z-1000000.jsonl.gz",
                "events.jsonl",
            ])
        #expect(
            EventLog.files(in: directory.url, fileName: "other").map(\.lastPathComponent) == [
                "other-20261122T100000.000Z-000001.jsonl.gz", "other.jsonl",
            ])
        #expect(EventLog.files(in: directory.file("missing")) == [])
    }

    /// The names of the log's files in `directory`, without the lock every log holds there.
    /// The names of the files in `directory` but the locks: the directory's, and the log file's writer's.
    private static func logFiles(in directory: TemporaryDirectory) throws -> [String] {
        try directory.names().filter { $0 != LogDirectoryLock.fileName && !$0.hasSuffix(".lock") }
    }
}
