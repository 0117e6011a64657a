import FaultlineLogReading
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
