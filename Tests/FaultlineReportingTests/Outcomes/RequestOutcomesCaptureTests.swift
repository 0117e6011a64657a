import Faultline
import FaultlineRecords
import FaultlineReporting
import FaultlineTestServer
import Foundation
import SeedScenarios
import TestSupport
import Testing

/// The capture middleware counts every request by route and outcome, with its duration, and the reporter writes the
/// counts as one line per interval: exact counts, whatever the intervals.
@Suite struct RequestOutcomesCaptureTests {
    static let users = RequestOutcomes.Route(method: "GET", route: "/boleto/users/{id}")
    static let travels = RequestOutcomes.Route(method: "POST", route: "/boleto/travels")

    @Test func aThousandRequestsWithFivePercentDecodingFailuresAreCountedExactly() async throws {
        let log = try LogDirectory()
        defer { log.remove() }
        let started = ContinuousClock.now
        let longest = try await SeedServer.run { server in
            // Given a reporter that writes the outcomes of each half second
            let setup = try await CaptureMiddlewareTests.setup(server, log: log) {
                $0.requestOutcomesInterval = .milliseconds(500)
            }
            // When 1 000 users are loaded (every 20th has no profile image, which fails decoding), 3 travels fail
            // with a business code, and one request is cancelled
            var longest = Duration.zero
            for id in 1...1_000 {
                let start = ContinuousClock.now
                _ = try? await setup.client.send(CaptureMiddlewareTests.user(id))
                longest = max(longest, .now - start)
            }
            for _ in 1...3 { _ = try? await setup.client.send(APIRequest<EmptyResponse>(.post, "/boleto/travels")) }
            let cancelled = Task { try await setup.client.send(CaptureMiddlewareTests.user(7)) }
            cancelled.cancel()
            _ = try? await cancelled.value
            await setup.reporter.close(timeout: patience)
            return longest
        }
        let elapsed = ContinuousClock.now - started

        // Then the lines add up to every request by route and outcome, with one duration each
        let lines = try log.requestOutcomes()
        var users = RequestOutcomes.Tally()
        var travels = RequestOutcomes.Tally()
        for line in lines {
            #expect(line.release == "boleto@2.4.1" && line.environment == "production")
            #expect(line.start <= line.end)
            if let tally = line.routes[Self.users] { users.merge(tally) }
            if let tally = line.routes[Self.travels] { travels.merge(tally) }
            #expect(Set(line.routes.keys).isSubset(of: [Self.users, Self.travels]))
        }
        #expect(users.outcomes == ["ok": 950, "decoding.2xx": 50])
        #expect(users.durations.total == 1_000)
        #expect(travels.outcomes == ["server.4xx": 3])
        // and a line per half second at most (one for each interval in which requests ended), never one per request
        let intervals = Int(elapsed / .milliseconds(500))
        #expect(lines.count >= 1 && lines.count <= intervals + 2, "\(lines.count) lines in \(elapsed)")
        // and no duration is longer than the longest wait the caller saw
        let slowest = try #require(users.durations.percentile(1))
        #expect(slowest <= longest + longest / 32, "slowest \(slowest), longest wait \(longest)")
    }

    @Test func anIntervalIsWrittenWhenItEndsWithoutAFlush() async throws {
        let log = try LogDirectory()
        defer { log.remove() }
        try await SeedServer.run { server in
            // Given a reporter that writes the outcomes of each 200 ms, its timers on a clock the test moves, and 5
            // successful requests
            let clock = ManualClock()
            let setup = try await CaptureMiddlewareTests.setup(server, log: log) {
                $0.requestOutcomesInterval = .milliseconds(200)
                $0.timers = ElapsedClock(clock)
            }
            for id in 1...5 { _ = try await setup.client.send(CaptureMiddlewareTests.user(id)) }

            // When the handed-over outcomes are taken, a second after the first, and their interval ends 200 ms later
            try await wait(for: "the hand-off's timer") { clock.waitingSleeps == 1 }
            clock.advance(by: .seconds(1))
            try await wait(for: "the interval's timer") { clock.waitingSleeps == 1 }
            #expect(try log.requestOutcomes().isEmpty)
            clock.advance(by: .milliseconds(200))

            // Then their line is written, one for the five, with nothing else asked of the reporter
            try await wait(for: "the interval's line") { try !log.requestOutcomes().isEmpty }
            #expect(try log.requestOutcomes().map { $0.routes[Self.users]?.requests } == [5])
            await setup.reporter.close(timeout: .zero)
        }
    }

    @Test func withOutcomesOffNothingIsCounted() async throws {
        let log = try LogDirectory()
        defer { log.remove() }
        try await SeedServer.run { server in
            let setup = try await CaptureMiddlewareTests.setup(server, log: log) { $0.recordsRequestOutcomes = false }
            for id in 1...20 { _ = try? await setup.client.send(CaptureMiddlewareTests.user(id)) }
            await setup.reporter.close(timeout: patience)
        }
        #expect(try log.requestOutcomes().isEmpty)
        #expect(try log.events().count == 1)
    }
}
