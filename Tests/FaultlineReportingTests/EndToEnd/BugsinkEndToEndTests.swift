import Faultline
import FaultlineReporting
import FaultlineTestServer
import Foundation
import SeedScenarios
import TestSupport
import Testing

/// The seed scenarios, captured through the client and delivered by the pipeline, arrive in a real Bugsink with
/// their user, tags, fingerprint and exception, grouped into one issue per failure.
@Suite struct BugsinkEndToEndTests {
    // One transport after the other: two Bugsinks starting at once stall every suite on a 2-core machine.
    @Test(.serialized, arguments: DeliveryFixtures.Transport.allCases)
    func theSeedScenariosArriveInBugsinkGroupedIntoTheirIssues(over transport: DeliveryFixtures.Transport)
        async throws
    {
        let log = try LogDirectory()
        defer { log.remove() }
        let (stored, delivered) = try await BugsinkPeer.run { dsn in
            try await SeedServer.run { server in
                // Given a Boleto client whose reporter sends to Bugsink over the transport
                var options = Reporter.Options(logDirectory: log.url)
                options.release = "boleto@2.4.1"
                options.dsn = dsn
                options.transport = transport.make()
                let reporter = try Reporter(options: options)

                // When the seed scenarios fail: two users hit 40013, one 40304, two profiles without an image,
                // a proxy's HTML 502, a timeout, then an expired session
                await CapturedSeedScenarios(server: server, reporter: reporter).run()
                return await reporter.close(timeout: slowed(.seconds(30)))
            }
        }

        // Then all 8 events arrived, in 6 issues, each with what the pipeline put in it
        #expect(delivered)
        #expect(stored.count == 8)
        let issues = Dictionary(grouping: stored, by: \.issue)
        #expect(issues.count == 6)
        let fingerprints = Set(issues.values.map { $0.map { $0.event.fingerprint ?? [] } })
        #expect(fingerprints == CapturedSeedScenarios.fingerprintsByIssue)
        let travels = stored.filter { $0.event.tags["server.code"] == "40013" }
        #expect(Set(travels.compactMap { $0.event.user?.id }) == ["KAKAO_kim", "APPLE_lee"])
        #expect(travels.allSatisfy { $0.event.tags["http.route"] == "/boleto/travels" })
        #expect(travels.allSatisfy { $0.event.tags["error.kind"] == "server" })
        #expect(travels.allSatisfy { $0.event.exception?.values.first?.value.contains("40013") == true })
        #expect(stored.allSatisfy { $0.event.release == "boleto@2.4.1" && $0.event.sdk.name == "faultline.swift" })

        // And the local log holds the same 8 events, byte for byte what was sent
        let logged = try log.events()
        #expect(Set(logged.map(\.eventID)) == Set(stored.map(\.event.eventID)))
    }
}
