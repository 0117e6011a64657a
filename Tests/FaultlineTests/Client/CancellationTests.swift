import Faultline
import FaultlineTestServer
import Foundation
import TestSupport
import Testing

/// S11: a cancelled request is classified as cancelled, is not retried, and is never published as a failure.
@Suite struct CancellationTests {
    @Test func cancellingInFlightRequestsFailsThemAsCancelledOnly() async throws {
        try await SeedServer.run { server in
            // Given requests in flight on a slow route, and an observer of failures
            let clock = FakeClock()
            let client = SeedClients.plain(server, clock: clock)
            var failures = await client.failures().makeAsyncIterator()
            let slow = APIRequest<EmptyResponse>(.get, "/slow", query: [.init(name: "ms", value: "30000")])
            let sent = ContinuousClock.now
            let inFlight = (0..<5).map { _ in Task { await failure { try await client.send(slow) } } }
            try await Task.sleep(for: .milliseconds(200))

            // When the app signs out and cancels them
            for task in inFlight { task.cancel() }
            var outcomes: [RequestFailure?] = []
            for task in inFlight { outcomes.append(await task.value) }

            // Then each ends before the server could have answered (30 s after it received the request, which was
            // after `sent`: the answer is not what ended them, however loaded the machine), as cancelled, without
            // retries
            #expect(ContinuousClock.now - sent < slowed(.seconds(30)))
            #expect(outcomes.allSatisfy { $0?.isCancelled == true })
            #expect(clock.sleeps.isEmpty)

            // And the failure stream's next element is a real failure, not one of the cancellations
            _ = await failure { try await client.send(APIRequest<EmptyResponse>(.get, "/e05/crash")) }
            #expect(await failures.next()?.serverFailure?.code == "E99")
        }
    }

    @Test func requestsCancelledAsTheyStartOrEndAreCancelledOrAnswered() async throws {
        try await SeedServer.run { server in
            // Given the default client (its session looks in no cache, which on Linux a cancellation can race)
            let client = SeedClients.plain(server)
            let quick = APIRequest<EmptyResponse>(.get, "/slow", query: [.init(name: "ms", value: "0")])
            var cancelled = 0
            var answered = 0
            // When 400 requests are cancelled between 0 and 2 ms after they are sent: before they start, while the
            // session starts them, while the server answers, after it has
            for round in 0..<400 {
                let request = Task { try await client.send(quick) }
                try await Task.sleep(for: .microseconds(round % 40 * 50))
                request.cancel()
                do {
                    _ = try await request.value
                    answered += 1
                } catch let failure as RequestFailure {
                    // Then each is either cancelled or answered, never failed otherwise, and the process lives
                    #expect(failure.isCancelled, "round \(round): \(failure)")
                    cancelled += 1
                }
            }
            #expect(cancelled + answered == 400)
            #expect(cancelled > 0)
        }
    }

    @Test func aRequestCancelledBeforeItStartsNeverReachesTheServer() async throws {
        try await SeedServer.run { server in
            let client = SeedClients.plain(server)
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return await failure { try await client.send(RetryTests.flaky("never", failures: 0)) }
            }

            #expect(await task.value?.isCancelled == true)
            #expect(await server.state.requestCount(flakyKey: "never") == 0)
        }
    }
}
