import FaultlineLogReading
import FaultlineRecords
import FaultlineReporting
import FaultlineTestServer
import FaultlineTriage
import Foundation
import TestSupport
import Testing

/// `faultline serve` scrubs the events other SDKs send at least as Sentry's Relay does by default, with Relay's own
/// engine as the oracle: for events shaped like what the Python, JavaScript, Cocoa and Java SDKs send, with secrets,
/// personal data and harmless look-alikes planted in them (`Tests/peers/scrubbing/`), no value Relay's default
/// scrubbing removes is stored or forwarded by serve, and no look-alike is destroyed.
///
/// Where Faultline is stricter, the corpus says so: a planted secret Relay keeps has `"relay": false`, and a look-alike
/// Relay destroys (its key holds `auth`, `token` or `password`) has `"relay": true`. The test checks those marks
/// against Relay too, so the list of differences is what Relay does.
@Suite struct RelayScrubbingOracleTests {
    /// A corpus of one SDK's events, with what was planted in them.
    struct Corpus: Decodable {
        let sdk: String
        let events: [JSONValue]
        let secrets: [Planted]
        let lookalikes: [Planted]

        /// The file of `name`'s corpus.
        static func file(_ name: String) -> URL { Repository.file("Tests/peers/scrubbing/\(name).json") }
    }

    /// A value planted in a corpus's events, where it is, and whether Relay's default scrubbing removes it.
    struct Planted: Decodable, CustomStringConvertible {
        let value: String
        let `where`: String
        let relay: Bool

        var description: String { "\(value) at \(`where`)" }
    }

    static let sdks = ["python", "javascript", "cocoa", "java"]

    @Test(arguments: sdks)
    func serveStoresNoValueRelayRemovesAndEveryLookAlike(_ sdk: String) async throws {
        // Given an SDK's events and what Relay's own engine keeps of them
        let corpus = try Self.corpus(sdk)
        let relayKept = try await PythonPeer.run("relay_scrub.py", [Corpus.file(sdk).path])
        for planted in corpus.secrets + corpus.lookalikes {
            #expect(Self.holds(relayKept, planted.value) != planted.relay, "Relay, for \(sdk): \(planted)")
        }

        // When the SDK sends them to `faultline serve`
        let logs = try ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        try await ServeFixture.run(logs: logs) { serve in try await Self.send(corpus, to: serve) }

        // Then no byte serve wrote holds a secret, and every look-alike is there as sent
        let stored = try ServeFixture.bytes(in: logs)
        #expect(corpus.secrets.filter { Self.holds(stored, $0.value) }.map(\.description) == [])
        #expect(corpus.lookalikes.filter { !Self.holds(stored, $0.value) }.map(\.description) == [])
        // And what it stored reads as events, every one
        let scan = await LogScan(files: try LogFile.all(in: logs), filter: EventFilter())
        #expect(scan.events == corpus.events.count)
        #expect(scan.counts.notJSON == 0 && scan.counts.notAnEvent == 0)
    }

    @Test func aRelayForwardsNoSecretAndEveryLookAlike() async throws {
        // Given every corpus's events
        let corpora = try Self.sdks.map(Self.corpus)

        // When they are sent to `faultline serve --forward` in front of an upstream
        let logs = try ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        let received = try await RecordingIngest.run { upstream in
            let forwarding = try RelayFixture.forwarding(to: upstream.dsn(), storesLocally: false)
            try await ServeFixture.run(logs: logs, forwarding: forwarding) { relay in
                for corpus in corpora { try await Self.send(corpus, to: relay) }
                try await RelayFixture.waitUntilNothingIsQueued(in: relay)
            }
            return try await RelayFixture.received(by: upstream.recorder)
        }

        // Then the upstream received every event, with no secret and every look-alike
        let events = received.flatMap(\.envelope.items).filter { $0.type == "event" }.map(\.payload)
        #expect(events.count == corpora.map(\.events.count).reduce(0, +))
        let forwarded = events.reduce(Data(), +)
        let planted = corpora.flatMap { corpus in corpus.secrets.map { (corpus.sdk, $0) } }
        #expect(planted.filter { Self.holds(forwarded, $0.1.value) }.map { "\($0.0): \($0.1)" } == [])
        let lookalikes = corpora.flatMap { corpus in corpus.lookalikes.map { (corpus.sdk, $0) } }
        #expect(lookalikes.filter { !Self.holds(forwarded, $0.1.value) }.map { "\($0.0): \($0.1)" } == [])
    }

    /// Sentry's data scrubbing settings, as a project sets them, and the `faultline serve` options of the same names.
    static let settings: [(sentry: String, serve: [String])] = [
        (
            #"{"sensitiveFields": ["order_ref", "tenant"], "excludeFields": ["password_hint"], "scrubIpAddresses": true}"#,
            ["--sensitive-fields", "order_ref,tenant", "--exclude-fields", "password_hint", "--scrub-ip-addresses"]
        ),
        (
            #"{"scrubDefaults": false, "sensitiveFields": ["order_ref"]}"#,
            ["--no-scrub-defaults", "--sensitive-fields", "order_ref"]
        ),
    ]

    @Test(arguments: 0..<2)
    func sentrysScrubbingSettingsWorkInServeAsInRelay(_ setting: Int) async throws {
        // Given an event with values that the settings decide on, and what Relay keeps of it with them
        let (sentry, serve) = Self.settings[setting]
        let planted = [
            "ORD-7731-KX", "acme-corp-eu9", "first pet name", "203.0.113.77", "198.51.100.23", "192.0.2.44",
            "hunter2-x9q", "sess-4f9a8c7e2b",
        ]
        let event: JSONValue = [
            "event_id": "5d1e0c9b8a7f6e5d4c3b2a1908f7e6d5", "timestamp": "2026-12-01T20:00:00Z", "platform": "python",
            "level": "error", "message": "checkout failed",
            "user": ["id": "u-1", "ip_address": "198.51.100.23"],
            "request": ["url": "https://shop.example/checkout", "env": ["REMOTE_ADDR": "192.0.2.44"]],
            "extra": [
                "order_ref": "ORD-7731-KX", "customer_tenant": "acme-corp-eu9", "password_hint": "first pet name",
                "note": "client 203.0.113.77 retried", "password": "hunter2-x9q", "session_token": "sess-4f9a8c7e2b",
            ],
        ]
        let directory = try TemporaryDirectory("scrubbing-settings")
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("corpus.json")
        let corpus: JSONValue = ["sdk": "sentry.python", "events": [event], "secrets": [], "lookalikes": []]
        try JSONEncoder().encode(corpus).write(to: file)
        let relayKept = try await PythonPeer.run("relay_scrub.py", ["--datascrubbing", sentry, file.path])
        // (the settings decide: Relay keeps some of the values and removes others)
        #expect(planted.contains { Self.holds(relayKept, $0) } && planted.contains { !Self.holds(relayKept, $0) })

        // When the event is sent to `faultline serve` started with the same settings
        let logs = try ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        let (process, port) = try await ServeFixture.launch(logs: logs, serve)
        defer { process.terminate() }
        let envelope = Envelope(
            eventID: "5d1e0c9b8a7f6e5d4c3b2a1908f7e6d5", eventJSON: try JSONEncoder().encode(event), dsn: nil)
        let fixture = ServeFixture(logs: logs, port: port)
        let (status, reason) = try await fixture.post(
            "/api/1/envelope/", body: envelope.serialized(), headers: ServeFixture.auth)
        #expect(status == 200, "\(reason)")
        process.terminate()
        #expect(try await process.exit().status == 0)

        // Then serve keeps exactly what Relay keeps of the values the settings decide on
        let stored = try ServeFixture.bytes(in: logs)
        let disagreements = planted.filter { Self.holds(stored, $0) != Self.holds(relayKept, $0) }
        #expect(disagreements == [], "\(sentry): Relay keeps \(planted.filter { Self.holds(relayKept, $0) })")
    }

    private static func corpus(_ sdk: String) throws -> Corpus {
        try JSONDecoder().decode(Corpus.self, from: Data(contentsOf: Corpus.file(sdk)))
    }

    /// Sends each of `corpus`'s events to `serve` in an envelope of its own, as the SDKs do; each is accepted.
    private static func send(_ corpus: Corpus, to serve: ServeFixture) async throws {
        for event in corpus.events {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .withoutEscapingSlashes
            let json = try encoder.encode(event)
            let id = try #require(event.objectValue?["event_id"]?.stringValue)
            let envelope = Envelope(eventID: id, eventJSON: json, dsn: nil).serialized()
            let (status, reason) = try await serve.post("/api/1/envelope/", body: envelope, headers: ServeFixture.auth)
            #expect(status == 200, "\(corpus.sdk) \(id): \(reason)")
        }
    }

    /// Whether `bytes` hold `value`'s UTF-8.
    private static func holds(_ bytes: Data, _ value: String) -> Bool {
        bytes.range(of: Data(value.utf8)) != nil
    }
}
