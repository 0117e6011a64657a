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
        let (stored, delivered) = try await Bugsink.run(repository: Repository.root) { bugsink in
            // Given an app whose reporter sends to a relay that forwards to Bugsink, and checks it at start
            var forwarding = try RelayFixture.forwarding(to: bugsink)
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
                    return await reporter.close(timeout: .seconds(30))
                }
                try await wait(for: "the relay's queue to empty") {
                    try await relay.metrics().contains { $0.key.hasPrefix("faultline_forward_queue") && $0.value == 0 }
                }
                return delivered
            }
        }

        // Then the relay said at start that Bugsink takes its DSN
        #expect(
            warnings.withLock { $0 }.contains { $0.contains("accepts the relay's DSN") }, "\(warnings.withLock { $0 })")
        // Then Bugsink has all 8 events in the 6 issues they form when the app sends to it directly
        struct Stored: Decodable {
            let issue: String
            let event: SentryEvent
        }
        let events = try JSONDecoder().decode([Stored].self, from: stored)
        #expect(delivered)
        #expect(events.count == 8)
        let issues = Dictionary(grouping: events, by: \.issue)
        #expect(issues.count == 6)
        let fingerprints = Set(issues.values.map { $0.map { $0.event.fingerprint ?? [] } })
        #expect(fingerprints == CapturedSeedScenarios.fingerprintsByIssue)
        #expect(events.allSatisfy { $0.event.release == "boleto@2.4.1" && $0.event.sdk.name == "faultline.swift" })

        // And the relay's log holds the same 8 events for local triage
        let local = await LogScan(files: try LogFile.all(in: relayLogs), filter: EventFilter())
        #expect(local.events == 8)
        #expect(local.issues.count == 6)
    }
}
