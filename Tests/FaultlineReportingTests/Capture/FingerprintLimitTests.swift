import Faultline
import FaultlineReporting
import Foundation
import Synchronization
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `fingerprintLimit`: at most N events of a fingerprint per window, the rest counted and carried on the next kept
/// event, on the reporter's clock.
@Suite struct FingerprintLimitTests {
    static let start = Date(timeIntervalSince1970: 1_795_510_800)  // 2026-11-24T09:00:00Z
    static let tag = Reporter.FingerprintLimit.suppressedCountTag

    @Test func eachFingerprintKeepsItsLimitPerWindowAndTheNextKeptEventCarriesTheRest() async throws {
        let log = try LogDirectory()
        defer { log.remove() }
        // Given a reporter that keeps 3 events of a fingerprint a minute, on a clock the test moves
        let clock = FakeClock(Self.start)
        var options = Reporter.Options(logDirectory: log.url)
        options.clock = { clock.date }
        options.fingerprintLimit = .init(events: 3, per: .seconds(60))
        let reporter = try Reporter(options: options)

        // When one message is captured 10 times and another twice in the same second
        var ids: [String?] = []
        for _ in 0..<10 { ids.append(await reporter.capture(message: "database down")) }
        for _ in 0..<2 { ids.append(await reporter.capture(message: "cache down")) }

        // Then 3 of the first and both of the second are kept, and the other 7 are counted without an id
        #expect(ids.compactMap { $0 }.count == 5)
        #expect(ids[3..<10].allSatisfy { $0 == nil })
        #expect(await reporter.statistics.suppressedByFingerprintLimit == 7)
        #expect(try await log.events(writtenBy: reporter).allSatisfy { $0.tags[Self.tag] == nil })

        // When the storm goes on within the minute, then past it
        clock.advance(by: .seconds(30))
        #expect(await reporter.capture(message: "database down") == nil)
        clock.advance(by: .seconds(30))
        let carrier = await reporter.capture(message: "database down")
        let next = await reporter.capture(message: "database down")

        // Then the first event of the new window carries the 8 suppressed, and the next carries none
        let events = try await log.events(writtenBy: reporter)
        #expect(events.count == 7)
        #expect(events[5].eventID == carrier && events[5].tags[Self.tag] == "8")
        #expect(events[6].eventID == next && events[6].tags[Self.tag] == nil)
        #expect(await reporter.statistics.suppressedByFingerprintLimit == 8)
    }

    @Test func failuresAreLimitedByTheirFingerprintBeforeTheyAreAssembled() async throws {
        let log = try LogDirectory()
        defer { log.remove() }
        // Given a reporter that keeps 2 events of a fingerprint a minute and counts the events it assembles
        let assembled = Mutex(0)
        var options = Reporter.Options(logDirectory: log.url)
        options.fingerprintLimit = .init(events: 2, per: .seconds(60))
        options.beforeSend = { event in
            assembled.withLock { $0 += 1 }
            return event
        }
        let reporter = try Reporter(options: options)

        // When timeouts on two routes (one fingerprint: transport, timeout) and conflicts on one are captured
        for route in ["/a", "/b", "/a", "/b", "/a"] { await reporter.capture(Self.timeout(on: route)) }
        for _ in 0..<3 { await reporter.capture(Self.conflict()) }

        // Then two of each are written, and the suppressed ones were never assembled
        let events = try await log.events(writtenBy: reporter)
        #expect(
            events.map(\.fingerprint) == [
                ["transport", "timeout"], ["transport", "timeout"],
                ["server", "POST /v1/boletos", "409", "-"], ["server", "POST /v1/boletos", "409", "-"],
            ])
        #expect(assembled.withLock { $0 } == 4)
        #expect(await reporter.statistics.suppressedByFingerprintLimit == 4)
    }

    @Test func withoutALimitEveryEventIsKept() async throws {
        let log = try LogDirectory()
        defer { log.remove() }
        var options = Reporter.Options(logDirectory: log.url)
        options.fingerprintLimit = nil
        let reporter = try Reporter(options: options)

        for _ in 0..<30 { await reporter.capture(message: "database down") }

        #expect(try await log.events(writtenBy: reporter).count == 30)
        #expect(await reporter.statistics.suppressedByFingerprintLimit == 0)
    }

    @Test func theDefaultKeepsTenAMinute() {
        let limit = Reporter.Options(logDirectory: URL(fileURLWithPath: "/tmp")).fingerprintLimit
        #expect(limit == Reporter.FingerprintLimit(events: 10, per: .seconds(60)))
    }

    static func timeout(on route: String) -> RequestFailure {
        let context = RequestContext(
            requestID: "r", method: .get, route: route, url: URL(string: "https://api.example\(route)")!,
            allowsRetry: false)
        return RequestFailure(.transport(TransportFailure(URLError(.timedOut))), context: context)
    }

    static func conflict() -> RequestFailure {
        let url = URL(string: "https://api.example/v1/boletos")!
        let response = HTTPURLResponse(url: url, statusCode: 409, httpVersion: nil, headerFields: nil)!
        var context = RequestContext(
            requestID: "r", method: .post, route: "/v1/boletos", url: url, allowsRetry: false)
        context.statusCode = 409
        let failure = FailureClassifier().failure(in: response, body: Data())!
        return RequestFailure(.server(failure), context: context)
    }
}
