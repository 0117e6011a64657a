import FaultlineLogReading
import FaultlineRecords
import FaultlineReporting
import FaultlineTriage
import Foundation
import TestSupport
import Testing

/// Timelines show every bucket between the first and the last event, empty ones included.
@Suite struct TimelineReportTests {
    @Test func emptyBucketsAreShownAndTheSizeFollowsTheRange() async throws {
        // Given events at minutes 0, 0, 1 and 7 of an hour, and one five hours later
        let start = 1_795_000_020.0  // 2026-11-18T11:07:00Z
        let log = try Self.log(at: [0, 10, 60, 420].map { start + $0 })
        defer { try? FileManager.default.removeItem(at: log) }
        let first = await LogScan(files: [LogFile(url: log)], filter: EventFilter())

        let minutes = TimelineReport(first)
        #expect(minutes.bucketMinutes == 1)
        #expect(minutes.buckets.map(\.events) == [2, 1, 0, 0, 0, 0, 0, 1])
        #expect(minutes.buckets.first?.start == "2026-11-18T11:07:00Z")

        let longer = try Self.log(at: [0, 10, 60, 420, 5 * 3600].map { start + $0 })
        defer { try? FileManager.default.removeItem(at: longer) }
        let hours = TimelineReport(await LogScan(files: [LogFile(url: longer)], filter: EventFilter()))
        #expect(hours.bucketMinutes == 15)
        #expect(hours.buckets.count == 21)
        #expect(hours.buckets.map(\.events).reduce(0, +) == 5)
        #expect(try TimelineReport(first, bucketMinutes: 60).buckets.map(\.events) == [4])
    }

    @Test func aWindowRunsToItsEndSoThatAQuietEndShows() async throws {
        // Given events in the first two minutes of a window that runs ten minutes, to now
        let start = 1_795_000_020.0
        let log = try Self.log(at: [5, 30, 70].map { start + $0 })
        defer { try? FileManager.default.removeItem(at: log) }
        let scan = await LogScan(files: [LogFile(url: log)], filter: EventFilter())

        // When the timeline is drawn over the window
        let timeline = try TimelineReport(scan, bucketMinutes: 1, from: start, to: start + 600)

        // Then it ends at the window's end, its empty minutes shown
        #expect(timeline.buckets.map(\.events) == [2, 1, 0, 0, 0, 0, 0, 0, 0, 0])
        #expect(timeline.buckets.last?.start == "2026-11-18T11:16:00Z")
        // and a window with no events at all is empty buckets, not "no events": 12:07 to 12:37 in buckets of five
        // minutes, aligned to the clock
        let quiet = try TimelineReport(scan, bucketMinutes: 5, from: start + 3600, to: start + 3600 + 1800)
        #expect(quiet.buckets.map(\.events) == [0, 0, 0, 0, 0, 0, 0])
        #expect(quiet.buckets.first?.start == "2026-11-18T12:05:00Z")
    }

    @Test func yearsApartAreAtMost48BucketsOfWholeDaysAndAskedForBucketsHaveALimit() async throws {
        // Given an event of a clock reset to 1970 and one of 2026
        let log = try Self.log(at: [0, 1_795_000_020])
        defer { try? FileManager.default.removeItem(at: log) }
        let scan = await LogScan(files: [LogFile(url: log)], filter: EventFilter())

        // When the timeline chooses its buckets, then it takes as many days as give 48 buckets at most
        let timeline = TimelineReport(scan)
        #expect(timeline.bucketMinutes % 1440 == 0)
        #expect((40...48).contains(timeline.buckets.count))
        #expect(timeline.buckets.first?.start == "1970-01-01T00:00:00Z")
        #expect(timeline.buckets.map(\.events).reduce(0, +) == 2)
        // and buckets of a minute asked for over those 56 years are refused, saying how many they would make
        #expect(throws: TimelineReport.TooManyBuckets.self) { try TimelineReport(scan, bucketMinutes: 1) }
        #expect(
            try TimelineReport(scan, bucketMinutes: 1440 * 7).buckets.count <= TimelineReport.maximumRequestedBuckets)
    }

    @Test func bucketsBefore1970StartAtOrBeforeTheirEvents() async throws {
        // Given an event of the year 1 and one of the year 9999
        let year1 = -62_135_596_800.0  // 0001-01-01T00:00:00Z
        let year9999 = 253_402_300_799.0  // 9999-12-31T23:59:59Z
        let log = try Self.log(at: [year1, year9999])
        defer { try? FileManager.default.removeItem(at: log) }
        let scan = await LogScan(files: [LogFile(url: log)], filter: EventFilter())

        // When the timeline chooses its buckets, or is asked for buckets of 1000 days
        for timeline in [TimelineReport(scan), try TimelineReport(scan, bucketMinutes: 1440 * 1000)] {
            // Then the first bucket starts at or before the year 1 and holds its event, the last holds the other
            let first = try #require(timeline.buckets.first)
            #expect(first.start <= "0001-01-01T00:00:00Z" && first.events == 1)
            #expect(timeline.buckets.dropFirst().allSatisfy { $0.start > "0001-01-01T00:00:00Z" })
            #expect(timeline.buckets.last?.start ?? "" <= "9999-12-31T23:59:59Z" && timeline.buckets.last?.events == 1)
            #expect(timeline.buckets.map(\.events).reduce(0, +) == 2)
        }
    }

    private static func log(at times: [Double]) throws -> URL {
        let url = try TemporaryDirectory("timeline").file("events.jsonl")
        var data = Data()
        for time in times {
            data += EventEncoder.encode(SentryEvent(level: .error, date: Date(timeIntervalSince1970: time)))
            data.append(0x0A)
        }
        try data.write(to: url)
        return url
    }
}
