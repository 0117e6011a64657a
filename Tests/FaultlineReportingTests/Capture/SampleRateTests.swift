import FaultlineReporting
import Foundation
import Testing

/// `sampleRate`: decided at capture, before the event is queued, and counted.
@Suite struct SampleRateTests {
    @Test func aRateOfZeroKeepsNothingAndCountsEveryEvent() async throws {
        let log = try LogDirectory()
        defer { log.remove() }
        // Given a reporter that samples nothing
        var options = Reporter.Options(logDirectory: log.url)
        options.sampleRate = 0

        // When 50 events are captured
        let reporter = try Reporter(options: options)
        var ids: [String?] = []
        for index in 0..<50 { ids.append(await reporter.capture(message: "checkout \(index)")) }

        // Then none was given an id or written, and all were counted
        #expect(ids.allSatisfy { $0 == nil })
        #expect(try await log.events(writtenBy: reporter).isEmpty)
        let statistics = await reporter.statistics
        #expect(statistics.droppedBySampleRate == 50)
        #expect(statistics.captured.isEmpty)
    }

    @Test func theDefaultRateOfOneKeepsEveryEvent() async throws {
        let log = try LogDirectory()
        defer { log.remove() }
        let reporter = try Reporter(options: .init(logDirectory: log.url))

        for index in 0..<50 { await reporter.capture(message: "checkout \(index)") }

        #expect(try await log.events(writtenBy: reporter).count == 50)
        #expect(await reporter.statistics.droppedBySampleRate == 0)
    }

    @Test func aQuarterKeepsAboutAQuarter() async throws {
        let log = try LogDirectory()
        defer { log.remove() }
        // Given a reporter that samples a quarter of the events, with a queue that holds them all on a busy machine
        var options = Reporter.Options(logDirectory: log.url)
        options.sampleRate = 0.25
        options.maxQueueSize = 4000
        let reporter = try Reporter(options: options)

        // When 4000 different events are captured
        var kept = 0
        for index in 0..<4000 {
            if await reporter.capture(message: "checkout \(index)") != nil { kept += 1 }
        }

        // Then every event is either written or counted, and about 1000 are written: the binomial's standard
        // deviation is 27, so 800...1200 fails once in 10^12 runs
        let written = try await log.events(writtenBy: reporter).count
        #expect(written == kept)
        #expect(await reporter.statistics.droppedBySampleRate == 4000 - kept)
        #expect((800...1200).contains(kept))
    }

    @Test func aRateOutsideZeroToOneIsIgnored() {
        var options = Reporter.Options(logDirectory: URL(fileURLWithPath: "/tmp"))
        options.sampleRate = 1.5
        #expect(options.sampleRate == 1)
        options.sampleRate = -0.1
        #expect(options.sampleRate == 1)
        options.sampleRate = .nan
        #expect(options.sampleRate == 1)
        options.sampleRate = 0.5
        #expect(options.sampleRate == 0.5)
    }
}
