import FaultlineLogReading
import FaultlineReporting
import FaultlineServe
import FaultlineTriage
import Foundation
import Synchronization
import TestSupport
import Testing

/// What serve trusts: only the keys it is started with, requests framed one way, and nothing secret from a refused
/// request in what it writes about it.
@Suite struct ServeTrustBoundaryTests {
    @Test func aKeyRevokedByARestartIsRefusedAtOnceAndTheNewKeyWorks() async throws {
        let logs = try ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        let (old, new) = ("11111111111111111111111111111111", "22222222222222222222222222222222")
        let auth = { (key: String) in ["X-Sentry-Auth": "Sentry sentry_key=\(key), sentry_version=7"] }
        // Given serve started with a key that an app sent with
        var configuration = IngestConfiguration(logDirectory: logs, publicKey: old)
        configuration.port = 0
        let first = try await RunningIngest(configuration)
        let before = ServeFixture(logs: logs, port: first.port)
        let sent = RelayFixture.eventEnvelope(RelayFixture.eventID(run: 0x7B, 1))
        #expect(try await before.post("/api/1/envelope/", body: sent, headers: auth(old)).0 == 200)
        try await first.stop()

        // When it is started again with another key, the old one revoked
        configuration.publicKey = new
        let second = try await RunningIngest(configuration)
        let after = ServeFixture(logs: logs, port: second.port)
        do {
            // Then the old key is refused from the first request, however it is sent, and the new one is taken
            let refused = RelayFixture.eventEnvelope(RelayFixture.eventID(run: 0x7B, 2))
            #expect(
                try await after.post("/api/1/envelope/", body: refused, headers: auth(old)) == (
                    403, "unknown sentry_key"
                ))
            #expect(try await after.post("/api/1/envelope/?sentry_key=\(old)", body: refused).0 == 403)
            let taken = RelayFixture.eventEnvelope(RelayFixture.eventID(run: 0x7B, 3))
            #expect(try await after.post("/api/1/envelope/", body: taken, headers: auth(new)).0 == 200)
            try await second.stop()
        } catch {
            try? await second.stop()
            throw error
        }
        let stored = await LogScan(files: try LogFile.all(in: logs), filter: EventFilter())
        #expect(stored.events == 2)
    }

    @Test(arguments: [
        ("two Content-Length headers", "Content-Length: 2\r\nContent-Length: 41\r\n"),
        ("Transfer-Encoding with Content-Length", "Transfer-Encoding: chunked\r\nContent-Length: 41\r\n"),
    ])
    func aRequestFramedTwoWaysIsRefusedAndNothingBehindItIsRead(name: String, framing: String) async throws {
        let logs = try ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        try await ServeFixture.run(logs: logs) { serve in
            // Given a request whose length a proxy and serve could read differently, with a second request hidden in
            // its body
            let hidden = RelayFixture.eventEnvelope(RelayFixture.eventID(run: 0x5A, 1))
            let smuggled =
                "POST /api/1/envelope/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "X-Sentry-Auth: Sentry sentry_key=\(ServeFixture.publicKey), sentry_version=7\r\n"
                + "Content-Length: \(hidden.count)\r\n\r\n" + String(decoding: hidden, as: UTF8.self)
            let request =
                "POST /api/1/envelope/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "X-Sentry-Auth: Sentry sentry_key=\(ServeFixture.publicKey), sentry_version=7\r\n" + framing
                + "\r\n0\r\n\r\n" + smuggled
            let connection = try LoopbackConnection(port: serve.port)
            defer { connection.close() }

            // When it is sent
            #expect(connection.write(request))
            let response = try await connection.response(within: patience)

            // Then serve answers 400 and closes the connection, and stores nothing, the hidden request's event neither
            #expect(response.hasPrefix("HTTP/1.1 400"), "\(name): \(response)")
            #expect(!response.contains("HTTP/1.1 200"), "\(name): \(response)")
            #expect(try await serve.metrics()[#"faultline_ingest_requests_total{status="200"}"#] == nil, "\(name)")
        }
        let stored = await LogScan(files: try LogFile.all(in: logs), filter: EventFilter())
        #expect(stored.events == 0, "\(name)")
    }

    @Test func whatServeWritesAboutARefusedRequestHoldsNoSecretFromItAndStaysOneLine() async throws {
        let logs = try ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        let secret = "sk_live_9f8e7d6c5b4a"
        let lines = Mutex<[String]>([])
        var configuration = IngestConfiguration(logDirectory: logs, publicKey: ServeFixture.publicKey)
        configuration.port = 0
        configuration.accessLog = { line in lines.withLock { $0.append(line) } }
        configuration.warnings = { line in lines.withLock { $0.append(line) } }
        let ingest = try await RunningIngest(configuration)
        let serve = ServeFixture(logs: logs, port: ingest.port)
        do {
            // Given requests refused for their key, their framing or their body, each carrying a secret: as the key
            // (in the query and the header), in the Authorization header, in an item's type with a forged log line,
            // and in a body that is not JSON
            let wrongKey = ["X-Sentry-Auth": "Sentry sentry_key=\(secret), sentry_secret=\(secret)"]
            let forgedType =
                #"{}"# + "\n"
                + #"{"type":"event\n2026-11-28T00:00:00Z 127.0.0.1 POST /api/1/envelope/ 200 \#(secret)","length":99}"#
                + "\n{}\n"
            let requests: [(String, Data, [String: String], Int)] = [
                ("/api/1/envelope/?sentry_key=\(secret)", Data("{}\n".utf8), [:], 403),
                ("/api/1/envelope/", Data("{}\n".utf8), wrongKey, 403),
                ("/api/1/envelope/", Data("{}\n".utf8), ["Authorization": "Bearer \(secret)"], 401),
                ("/api/1/envelope/", Data(forgedType.utf8), ServeFixture.auth, 400),
                ("/api/1/store/", Data("password=\(secret)".utf8), ServeFixture.auth, 400),
                ("/api/9/envelope/?sentry_key=\(secret)", Data("{}\n".utf8), [:], 404),
            ]
            for (path, body, headers, status) in requests {
                let (answered, reason) = try await serve.post(path, body: body, headers: headers)
                #expect(answered == status, "\(path)")
                // Then the answer's reason holds no secret either
                #expect(reason?.contains(secret) == false, "\(reason ?? "")")
            }
            try await ingest.stop()
        } catch {
            try? await ingest.stop()
            throw error
        }

        // Then serve wrote a line about each request, none holding the secret, each one line
        let written = lines.withLock { $0 }
        #expect(written.count >= 6, "\(written)")
        #expect(written.allSatisfy { !$0.contains(secret) }, "\(written)")
        #expect(written.allSatisfy { !$0.contains("\n") && !$0.contains("\r") }, "\(written)")
    }
}
