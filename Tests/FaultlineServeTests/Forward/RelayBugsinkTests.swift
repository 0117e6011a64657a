import Faultline
import FaultlineLogReading
import FaultlineReporting
import FaultlineServe
import FaultlineTestServer
import FaultlineTriage
import Foundation
import SeedScenarios
import Synchronization
import TestSupport
import Testing

/// Bugsink behind `faultline serve --forward` receives the seed scenarios' events and groups them as when the app
/// sends to it directly (the reporting tests' BugsinkEndToEndTests): the relay changes nothing on the way.
@Suite struct RelayBugsinkTests {
    @Test func bugsinkBehindTheRelayGetsEverySeedEventGroupedAsWhenSentDirectly() async throws {
        let appLogs = try ServeFixture.logDirectory()
        let relayLogs = try ServeFixture.logDirectory()
        defer {
            try? FileManager.default.removeItem(at: appLogs)
            try? FileManager.default.removeItem(at: relayLogs)
        }
        let warnings = Mutex<[String]>([])
        let (stored, delivered) = try await Bugsink.run { bugsink in
            // Given an app whose reporter sends to a relay that forwards to Bugsink, and checks it at start; the relay
            // has a second route to Bugsink, misconfigured: to a project Bugsink does not have (a wrong key is tried
            // against a recording upstream in RelayMisconfigurationTests: one upstream project takes one key)
            let right = try DSN(bugsink)
            let wrongProject = try DSN("http://\(right.publicKey)@\(right.host):\(right.port ?? 80)/999")
            var forwarding = ForwardConfiguration(
                routes: [right, wrongProject].enumerated().map { index, upstream in
                    ForwardRoute(projectID: String(index + 1), publicKey: ServeFixture.publicKey, upstream: upstream)
                })
            forwarding.checksUpstreams = true
            return try await ServeFixture.run(
                logs: relayLogs, forwarding: forwarding, warnings: { line in warnings.withLock { $0.append(line) } }
            ) { relay in
                var options = Reporter.Options(logDirectory: appLogs)
                options.release = "boleto@2.4.1"
                options.dsn = try DSN(relay.dsn)
                let reporter = try Reporter(options: options)

                // When the seed scenarios fail
                let delivered = try await SeedServer.run { server in
                    await CapturedSeedScenarios(server: server, reporter: reporter).run()
                    return await reporter.close(timeout: slowed(.seconds(30)))
                }
                try await wait(for: "the relay's queue to empty") {
                    try await relay.metrics()[Self.queueMetric(right)] == 0
                }
                // and an SDK sends an event along the misconfigured route
                let envelope = RelayFixture.eventEnvelope(RelayFixture.eventID(run: 0xB5, 2))
                let (status, reason) = try await relay.post(
                    "/api/2/envelope/", body: envelope, headers: ServeFixture.auth)
                #expect(status == 200, "\(reason ?? "")")
                // Then the relay keeps that event while Bugsink refuses it
                try await wait(for: "Bugsink to refuse the event") {
                    try await relay.metrics().contains {
                        $0.key.hasPrefix("faultline_forward_retried_total{upstream=\"\(Self.queue(wrongProject))\"")
                            && $0.value > 0
                    }
                }
                let metrics = try await relay.metrics()
                #expect(metrics[Self.queueMetric(wrongProject)] == 1)
                // and said at start that Bugsink takes the right DSN and refuses the wrong project, with its answer
                try await wait(for: "a word on each upstream") { warnings.withLock { $0.count >= 2 } }
                let said = warnings.withLock { $0 }
                #expect(said.contains { $0.contains("\(Self.queue(right)) accepts the relay's DSN") }, "\(said)")
                #expect(
                    said.contains { $0.contains(Self.queue(wrongProject)) && $0.contains("refuses the relay's DSN") },
                    "\(said)")
                #expect(
                    metrics.filter { $0.key.hasPrefix("faultline_forward_dropped_total") }.values.allSatisfy { $0 == 0 }
                )
                return delivered
            }
        }

        // Then Bugsink has all 8 events in the 6 issues they form when the app sends to it directly
        let events = try #require(try JSONValue(parsing: stored).arrayValue).map { item in
            (
                issue: try #require(item.objectValue?["issue"]?.stringValue),
                event: try SentryEvent(members: try #require(item.objectValue?["event"]?.objectValue))
            )
        }
        #expect(delivered)
        #expect(events.count == 8)
        let issues = Dictionary(grouping: events, by: \.issue)
        #expect(issues.count == 6)
        let fingerprints = Set(issues.values.map { $0.map { $0.event.fingerprint ?? [] } })
        #expect(fingerprints == CapturedSeedScenarios.fingerprintsByIssue)
        #expect(events.allSatisfy { $0.event.release == "boleto@2.4.1" && $0.event.sdk.name == "faultline.swift" })

        // And the relay's log holds the same 8 events for local triage, and the one Bugsink refused, in an issue of
        // its own
        let local = await LogScan(files: try LogFile.all(in: relayLogs), filter: EventFilter())
        #expect(local.events == 9)
        #expect(local.issues.count == 7)
    }

    /// The name of the relay's queue for `upstream`.
    private static func queue(_ upstream: DSN) -> String {
        "\(upstream.host)_\(upstream.port ?? 80)_\(upstream.projectID)"
    }

    /// The metric of the envelopes waiting in the relay's queue for `upstream`.
    private static func queueMetric(_ upstream: DSN) -> String {
        "faultline_forward_queue_envelopes{upstream=\"\(queue(upstream))\"}"
    }
}
