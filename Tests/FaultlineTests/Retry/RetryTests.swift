import Faultline
import FaultlineTestServer
import Foundation
import TestSupport
import Testing

/// S10: retries have a limit and backoff with jitter, and honour Retry-After.
@Suite struct RetryTests {
    static func flaky(
        _ key: String, method: HTTPMethod = .get, failures: Int, status: Int = 503, retryAfter: String? = nil,
        allowsRetry: Bool? = nil
    ) -> APIRequest<EmptyResponse> {
        var query = [
            URLQueryItem(name: "failures", value: String(failures)), .init(name: "status", value: String(status)),
        ]
        if let retryAfter { query.append(.init(name: "retryAfter", value: retryAfter)) }
        return APIRequest(method, "/flaky/{key}", pathParameters: ["key": key], query: query, allowsRetry: allowsRetry)
    }

    @Test func aTransientFailureIsRetriedWithGrowingJitteredDelays() async throws {
        try await SeedServer.run { server in
            let clock = FakeClock()
            let client = SeedClients.plain(server, clock: clock)

            let response = try await client.send(Self.flaky("a", failures: 2))

            #expect(response.context.attempt == 3)
            #expect(await server.state.requestCount(flakyKey: "a") == 3)
            let sleeps = clock.sleeps
            #expect(sleeps.count == 2)
            #expect(sleeps[0] >= .milliseconds(250) && sleeps[0] <= .milliseconds(500))
            #expect(sleeps[1] >= .milliseconds(500) && sleeps[1] <= .milliseconds(1000))
        }
    }

    @Test func retriesStopAtTheLimitWithTheLastFailure() async throws {
        try await SeedServer.run { server in
            let client = SeedClients.plain(server)

            let failure = await failure { try await client.send(Self.flaky("b", failures: 10, status: 500)) }

            #expect(failure?.serverFailure?.statusCode == 500)
            #expect(failure?.context.attempt == 3)
            #expect(await server.state.requestCount(flakyKey: "b") == 3)
        }
    }

    @Test func retryAfterInSecondsSetsTheDelay() async throws {
        try await SeedServer.run { server in
            let clock = FakeClock()
            let client = SeedClients.plain(server, clock: clock)

            _ = try await client.send(Self.flaky("c", failures: 1, status: 429, retryAfter: "7"))

            #expect(clock.sleeps == [.seconds(7)])
        }
    }

    @Test func retryAfterAsAnHTTPDateSetsTheDelay() async throws {
        try await SeedServer.run { server in
            let clock = FakeClock()
            let client = SeedClients.plain(server, clock: clock)
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            let start = Date()
            let date = formatter.string(from: start.addingTimeInterval(20))

            _ = try await client.send(Self.flaky("d", failures: 1, status: 503, retryAfter: date))

            // The date has whole seconds, and a loaded machine may take a while to answer.
            let elapsed = Date().timeIntervalSince(start)
            let delay = try #require(clock.sleeps.first)
            #expect(delay > .seconds(19 - elapsed) && delay <= .seconds(21))
        }
    }

    @Test func aRetryAfterLongerThanTheMaximumIsNotWaitedFor() async throws {
        try await SeedServer.run { server in
            let clock = FakeClock()
            let client = SeedClients.plain(server, clock: clock)

            let failure = await failure {
                try await client.send(Self.flaky("e", failures: 1, status: 429, retryAfter: "3600"))
            }

            #expect(failure?.serverFailure?.statusCode == 429)
            #expect(clock.sleeps.isEmpty)
        }
    }

    @Test func aPostIsNotRetriedUnlessItOptsIn() async throws {
        try await SeedServer.run { server in
            let client = SeedClients.plain(server)

            let failure = await failure { try await client.send(Self.flaky("f", method: .post, failures: 1)) }
            let response = try await client.send(Self.flaky("g", method: .post, failures: 1, allowsRetry: true))

            #expect(failure?.serverFailure?.statusCode == 503)
            #expect(await server.state.requestCount(flakyKey: "f") == 1)
            #expect(response.context.attempt == 2)
        }
    }

    @Test func aStatusOutsideTheRetryableSetIsNotRetried() async throws {
        try await SeedServer.run { server in
            let client = SeedClients.plain(server)

            _ = await failure { try await client.send(Self.flaky("h", failures: 1, status: 501)) }

            #expect(await server.state.requestCount(flakyKey: "h") == 1)
        }
    }
}
