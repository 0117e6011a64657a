import Faultline
import FaultlineLogReading
import FaultlineRecords
import FaultlineReporting
import FaultlineTestServer
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Secrets planted where real apps leak them (headers, query items, JSON bodies, a cookie set on the error, a server
/// message that echoes the token it rejected, an HTML debug page, a field the decoder quotes, breadcrumbs, log
/// messages, contexts, an error's description) go through the real client, reporter and a loopback server, and none
/// of them is in any byte the reporter writes (the log, its rotated gzip file, the outbox) or sends.
@Suite struct PlantedSecretsEndToEndTests {
    private struct SignIn: Encodable, Sendable {
        struct OAuth: Encodable, Sendable {
            let clientID: String
            let clientSecret: String

            enum CodingKeys: String, CodingKey {
                case clientID = "client_id"
                case clientSecret = "client_secret"
            }
        }

        let username: String
        let password: String
        let oauth: OAuth
    }

    private struct Profile: Decodable, Sendable {
        enum Tier: String, Decodable, Sendable {
            case free, pro
        }

        let id: Int
        let tier: Tier
    }

    private struct ConfigurationError: Error, CustomStringConvertible {
        let description: String
    }

    @Test func noPlantedSecretIsInAnyFileWrittenOrRequestSent() async throws {
        let secrets = PlantedSecrets()
        let log = try LogDirectory()
        defer { log.remove() }
        let clock = FakeClock(Date(timeIntervalSince1970: 1_795_000_000))
        let recorder = IngestRecorder()
        let (outbox, written) = try await RecordingIngest.run(recorder: recorder) { ingest in
            try await SeedServer.run { server in
                // Given a reporter whose uploader holds events until it is closed
                var options = Reporter.Options(logDirectory: log.url)
                options.clock = { clock.date }
                options.dsn = try DSN(ingest.dsn())
                options.configureDelivery = {
                    $0.batchSize = 100
                    $0.flushInterval = .seconds(600)
                }
                let reporter = try Reporter(options: options)
                let client = APIClient(baseURL: server.baseURL) {
                    $0.middlewares = [
                        CaptureMiddleware(reporter: reporter, baseURL: server.baseURL), RetryMiddleware(policy: .never),
                    ]
                }

                // When the app's log, breadcrumbs, scope and errors carry secrets
                await reporter.configureScope {
                    $0.contexts["deploy"] = ["database": .string("postgres://app:\(secrets.databasePassword)@db/app")]
                }
                await reporter.addBreadcrumb(
                    Breadcrumb(
                        category: "app.auth", message: "signing in with password=\(secrets.breadcrumbPassword)",
                        data: ["mirror": .string("https://deploy:\(secrets.gitPassword)@git.internal/app.git")]))
                // (a swift-log record as FaultlineLogging forwards it)
                await reporter.addBreadcrumb(
                    Breadcrumb(
                        category: "app.network", message: "refreshing with refresh_token=\(secrets.logRefreshToken)"))

                // and servers echo the secrets of three failing requests
                _ = try? await client.send(
                    APIRequest<EmptyResponse>(
                        .get, "/echoing/session",
                        headers: [
                            "Authorization": "Bearer \(secrets.jwt)", "X-Auth-Token": secrets.authToken,
                            "Cookie": "theme=dark; sid=\(secrets.cookieSID)",
                        ]))
                _ = try? await client.send(
                    APIRequest<EmptyResponse>(
                        .post, "/echoing/debug",
                        query: [
                            URLQueryItem(name: "api_key", value: secrets.queryAPIKey),
                            URLQueryItem(name: "token", value: secrets.queryToken),
                            URLQueryItem(name: "access_token", value: secrets.queryAccessToken),
                        ],
                        headers: ["X-Api-Key": secrets.apiKey, "Authorization": "Bearer \(secrets.debugBearer)"],
                        body: SignIn(
                            username: "kim", password: secrets.bodyPassword,
                            oauth: .init(clientID: "boleto-ios", clientSecret: secrets.bodyClientSecret))))
                _ = try? await client.send(
                    APIRequest<Profile>(
                        .get, "/echoing/profile", headers: ["Authorization": "Basic \(secrets.basicCredential)"]))
                // and a log record captured as an event, and an error, say them too
                await reporter.capture(message: "card \(secrets.cardNumber) was declined", level: .error)
                await reporter.capture(
                    error: ConfigurationError(
                        description: "unreadable key -----BEGIN PRIVATE KEY-----\n\(secrets.privateKeyBody)\n"
                            + "-----END PRIVATE KEY-----"))
                try await Self.waitUntilCaptured(5, by: reporter)
                // and a day later the log rotates before one more event
                clock.advance(by: .seconds(25 * 60 * 60))
                await reporter.capture(message: "after rotation: api_key=\(secrets.rotatedAPIKey)", level: .warning)
                try await Self.waitUntilCaptured(6, by: reporter)
                let outbox = try Self.files(in: options.outboxDirectory)
                #expect(await reporter.close(timeout: patience))
                return (outbox, try Self.files(in: log.url))
            }
        }

        // Then no file written and no request sent holds any of them
        let requests = await recorder.requests
        #expect(
            outbox.keys.contains { URL(fileURLWithPath: $0).lastPathComponent.hasPrefix("cursor-") },
            "the uploader kept its cursor into the log")
        #expect(written.keys.contains { $0.hasSuffix(".jsonl.gz") }, "the log rotated")
        #expect(requests.count >= 1 && requests.allSatisfy { $0.status == 200 })
        for (name, data) in outbox.merging(written, uniquingKeysWith: { $1 }) {
            #expect(secrets.found(in: data) == [], "\(name)")
        }
        for request in requests {
            let body = try Gzip.decompress(request.body, maximumSize: 16 << 20)
            #expect(secrets.found(in: body) == [], "a request to \(request.path)")
            #expect(secrets.found(in: Data(request.headers.description.utf8)) == [])
        }

        // And the events still read: what surrounded each secret is there, grouping and ids intact
        let events = try LogContents.lines(in: log.url).map {
            try SentryEvent(line: Data($0.utf8))
        }
        #expect(events.count == 6)
        let session = try #require(events.first { $0.tags["http.route"] == "/echoing/session" })
        #expect(session.fingerprint == ["server", "GET /echoing/session", "401", "50001"])
        #expect(session.contexts["faultline"]?.objectValue?["server_message"] == "invalid token [Filtered]")
        let debug = try #require(events.first { $0.tags["http.route"] == "/echoing/debug" })
        let preview = debug.contexts["faultline"]?.objectValue?["body_preview"]?.stringValue ?? ""
        #expect(preview.contains("debug: api_key=[Filtered]"))
        #expect(preview.contains("Authorization: Bearer [Filtered]"))
        let profile = try #require(events.first { $0.tags["http.route"] == "/echoing/profile" })
        #expect(profile.tags["decoding.path"] == "tier")
        #expect(profile.exception?.values.first?.value.contains("Basic [Filtered]") == true)
        #expect(events.contains { $0.message == "card [Filtered] was declined" })
        #expect(events.contains { $0.message == "after rotation: api_key=[Filtered]" })
        let crumbs = session.breadcrumbs?.values ?? []
        #expect(crumbs.first?.message == "signing in with password=[Filtered]")
        #expect(crumbs.first?.data?["mirror"] == "https://deploy:[Filtered]@git.internal/app.git")
        #expect(session.contexts["deploy"]?.objectValue?["database"] == "postgres://app:[Filtered]@db/app")
        #expect(Set(events.map(\.eventID)).count == 6 && events.allSatisfy { $0.eventID.count == 32 })
    }

    /// Waits until `reporter` has written `count` events to its log.
    private static func waitUntilCaptured(_ count: Int, by reporter: Reporter) async throws {
        try await wait(for: "\(count) events written") {
            await reporter.statistics.captured.values.reduce(0, +) >= count
        }
    }

    /// Every file under `directory` by its path, gzip files decompressed.
    private static func files(in directory: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { continue }
            var data = try Data(contentsOf: url)
            if url.pathExtension == "gz" { data = try Gzip.decompress(data, maximumSize: 256 << 20) }
            files[url.path] = data
        }
        return files
    }
}
