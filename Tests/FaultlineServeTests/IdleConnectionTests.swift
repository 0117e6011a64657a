import Foundation
import TestSupport
import Testing

/// A client that starts a request and stalls, or keeps a connection it does not use, does not hold it for ever.
@Suite struct IdleConnectionTests {
    @Test func aRequestThatStallsInItsHeadOrBodyIsClosedAfterTheIdleTimeout() async throws {
        let logs = try ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        try await ServeFixture.run(logs: logs, idleTimeout: .seconds(1)) { serve in
            // Given a client that sends half a head, one that sends the head and half the body, and one that sends a
            // whole request and then nothing
            let halfHead = try LoopbackConnection(port: serve.port)
            #expect(halfHead.write("POST /api/1/envelope/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le"))
            let halfBody = try LoopbackConnection(port: serve.port)
            #expect(
                halfBody.write(
                    "POST /api/1/envelope/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n"
                        + "X-Sentry-Auth: Sentry sentry_key=\(ServeFixture.publicKey)\r\n\r\n{}\n"))
            let kept = try LoopbackConnection(port: serve.port)
            #expect(kept.write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
            defer {
                for connection in [halfHead, halfBody, kept] { connection.close() }
            }

            // Then the server closes each soon after the second it allows (only a failure waits the 30 s)
            #expect(try await halfHead.isClosedByTheServer(within: slowed(.seconds(30))))
            #expect(try await halfBody.isClosedByTheServer(within: slowed(.seconds(30))))
            #expect(try await kept.isClosedByTheServer(within: slowed(.seconds(30))))
        }
    }
}
