import Faultline
import FaultlineReporting
import FaultlineTestServer
import Foundation
import SeedScenarios
import Testing

/// The seed scenarios, captured through the client and delivered by the pipeline, arrive in a real Bugsink with
/// their user, tags, fingerprint and exception, grouped into one issue per failure.
@Suite struct BugsinkEndToEndTests {
    @Test func theSeedScenariosArriveInBugsinkGroupedIntoTheirIssues() async throws {
        let log = LogDirectory()
        defer { log.remove() }
        let (stored, delivered) = try await BugsinkPeer.run { dsn in
            try await SeedServer.run { server in
                // Given a Boleto client whose reporter sends to Bugsink
                let setup = try await CaptureMiddlewareTests.setup(server, log: log) { $0.dsn = dsn }
                await setup.reporter.setUser(UserContext(id: "KAKAO_kim", segment: "KAKAO"))

                // When the seed scenarios fail: two users hit 40013, one 40304, two profiles without an image,
                // a proxy's HTML 502, a timeout, then an expired session
                _ = try? await setup.client.send(APIRequest<EmptyResponse>(.post, "/boleto/travels"))
                await RequestUser.$current.withValue(UserContext(id: "APPLE_lee", segment: "APPLE")) {
                    _ = try? await setup.client.send(APIRequest<EmptyResponse>(.post, "/boleto/travels"))
                }
                _ = try? await setup.client.send(
                    APIRequest<EmptyResponse>(.patch, "/boleto/travels/{id}", pathParameters: ["id": "7"]))
                _ = try? await setup.client.send(CaptureMiddlewareTests.user(20))
                _ = try? await setup.client.send(CaptureMiddlewareTests.user(40))
                _ = try? await setup.client.send(
                    APIRequest<EmptyResponse>(.get, "/proxy/users/{id}", pathParameters: ["id": "1"]))
                _ = try? await setup.client.send(
                    APIRequest<EmptyResponse>(
                        .get, "/slow", query: [.init(name: "ms", value: "2000")], timeout: .milliseconds(200)))
                await server.state.expireAccessTokens(of: .boleto)
                await server.state.expireRefreshTokens(of: .boleto)
                _ = try? await setup.client.send(CaptureMiddlewareTests.user(3))
                return await setup.reporter.close(timeout: .seconds(30))
            }
        }

        // Then all 8 events arrived, in 6 issues, each with what the pipeline put in it
        #expect(delivered)
        #expect(stored.count == 8)
        let issues = Dictionary(grouping: stored, by: \.issue)
        #expect(issues.count == 6)
        let fingerprints = Set(issues.values.map { $0.map { $0.event.fingerprint ?? [] } })
        #expect(
            fingerprints == [
                Array(repeating: ["server", "POST /boleto/travels", "400", "40013"], count: 2),
                [["server", "PATCH /boleto/travels/{id}", "403", "40304"]],
                Array(repeating: ["decoding", "Envelope<User>", "data.profileImage"], count: 2),
                [["server", "GET /proxy/users/{id}", "502", "-"]],
                [["transport", "timeout"]],
                [["session_expired", "refresh_failed"]],
            ])
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
