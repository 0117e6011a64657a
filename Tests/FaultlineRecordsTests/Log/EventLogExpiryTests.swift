import FaultlineRecords
import Foundation
import TestSupport
import Testing

/// With a maximum age, the event log removes its rotated files once they were rotated longer ago than the age, whole
/// and oldest first, counts them, empties the newest instead of removing it, and numbers its segments on after that.
@Suite struct EventLogExpiryTests {
    static let day = Duration.seconds(24 * 3600)

    /// The time of each event line in the log's files, by file, oldest file first.
    static func times(in directory: URL) throws -> [[Double]] {
        try EventLog.files(in: directory).map { file in
            var bytes = try Data(contentsOf: file)
            if file.pathExtension == "gz" { bytes = try Gzip.decompress(bytes, maximumSize: 1 << 30) }
            return try bytes.split(separator: UInt8(ascii: "\n")).map { line in
                let event = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
                return try #require(event["timestamp"] as? Double)
            }
        }
    }

    @Test func filesRotatedLongerAgoThanTheAgeAreRemovedWholeAndCounted() async throws {
        let directory = try TemporaryDirectory("expiry")
        defer { directory.remove() }
        let clock = FakeClock(Date(timeIntervalSince1970: 1_795_000_000))
        let log = try EventLog(
            configuration: .init(directory: directory.url, maximumAge: Self.day), now: { clock.date })

        // Given a line every 10 minutes for three days, under a maximum age of a day (files rotate every hour)
        for _ in 0..<(3 * 24 * 6) {
            let line = #"{"event_id":"\#(UUID().uuidString)","timestamp":\#(clock.date.timeIntervalSince1970)}"#
            try await log.append(Data(line.utf8))
            clock.advance(by: .seconds(600))
        }

        // Then no line older than the age and a file's hour is left, and every younger one is
        let now = clock.date.timeIntervalSince1970
        let times = try Self.times(in: directory.url).joined()
        #expect(times.allSatisfy { now - $0 <= 25 * 3600 })
        #expect(times.count >= 23 * 6 && times.count <= 25 * 6 + 1)
        #expect(times.sorted() == Array(times))
        let statistics = await log.statistics
        let rotated = try directory.names().filter { $0.hasSuffix(".gz") }.count
        #expect(statistics.expiredFiles == statistics.rotations - rotated)
        #expect((23...25).contains(rotated) && statistics.evictedFiles == 0)

        // When nothing is written for two days, an expiry removes every line: the active file rotates, the rotated
        // files go, and the newest is emptied, not removed
        clock.advance(by: Self.day * 2)
        let removed = try await log.expire()
        #expect(removed.evicted.isEmpty && removed.expired.count == rotated + 1)
        #expect(try Self.times(in: directory.url).joined().isEmpty)
        let names = try directory.names().filter { $0.hasSuffix(".gz") }
        #expect(names.count == 1)
        let newest = try #require(EventLog.files(in: directory.url).first)
        #expect(try Gzip.decompress(Data(contentsOf: newest), maximumSize: 1).isEmpty)
        #expect(try await log.expire().expired.isEmpty)

        // Then a log opened again numbers its segments on from the emptied file
        let segment = await log.activeSegment
        try await log.close()
        let reopened = try EventLog(configuration: .init(directory: directory.url, maximumAge: Self.day))
        #expect(await reopened.activeSegment == segment)
        try await reopened.close()
    }

    @Test func withoutAMaximumAgeNothingIsRemovedByAge() async throws {
        let directory = try TemporaryDirectory("expiry")
        defer { directory.remove() }
        let clock = FakeClock(Date(timeIntervalSince1970: 1_795_000_000))
        let log = try EventLog(configuration: .init(directory: directory.url), now: { clock.date })
        for _ in 0..<(4 * 24) {
            try await log.append(Data(#"{"timestamp":\#(clock.date.timeIntervalSince1970)}"#.utf8))
            clock.advance(by: .seconds(3600))
        }
        #expect(try await log.expire().expired.isEmpty)
        #expect(await log.statistics.expiredFiles == 0)
        #expect(try Self.times(in: directory.url).joined().count == 4 * 24)
        try await log.close()
    }
}
