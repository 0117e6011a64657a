import FaultlineReporting
import FaultlineServe
import FaultlineTestServer
import Foundation
import TestSupport
import Testing

/// `faultline serve --forward-config` accepts several projects and keys and sends each to its own upstream.
@Suite struct RelayRoutesTests {
    @Test func eachProjectAndKeyOfTheConfigFileGoesToItsOwnUpstream() async throws {
        let logs = try ServeFixture.logDirectory()
        let config = try ServeFixture.logDirectory().appendingPathExtension("json")
        defer {
            try? FileManager.default.removeItem(at: logs)
            try? FileManager.default.removeItem(at: config)
        }
        let otherKey = "00112233445566778899aabbccddeeff"
        let (shopUpstreamKey, billingUpstreamKey) = (
            "5409" + String(repeating: "a", count: 28), "b177" + String(repeating: "b", count: 28)
        )
        try await RecordingIngest.run { shop in
            try await RecordingIngest.run { billing in
                // Given a relay whose config file routes project 1 to one upstream and project 2 to another
                let routes = """
                    {"routes": [
                      {"project": "1", "key": "\(ServeFixture.publicKey)", "upstream": "\(shop.dsn(publicKey: shopUpstreamKey, project: 11))"},
                      {"project": "2", "key": "\(otherKey)", "upstream": "\(billing.dsn(publicKey: billingUpstreamKey, project: 22))"}
                    ]}
                    """
                try Data(routes.utf8).write(to: config)
                let (relay, port) = try await ServeFixture.launch(logs: logs, ["--forward-config", config.path])
                defer { relay.terminate() }
                let serve = ServeFixture(logs: logs, port: port)

                // When each project's SDK sends an event with its key, and one sends with the other's key
                let shopID = RelayFixture.eventID(run: 6, 1)
                let billingID = RelayFixture.eventID(run: 6, 2)
                #expect(
                    try await serve.post(
                        "/api/1/envelope/", body: RelayFixture.eventEnvelope(shopID), headers: ServeFixture.auth
                    ).0 == 200)
                let billingAuth = ["X-Sentry-Auth": "Sentry sentry_key=\(otherKey), sentry_version=7"]
                #expect(
                    try await serve.post(
                        "/api/2/envelope/", body: RelayFixture.eventEnvelope(billingID), headers: billingAuth
                    ).0 == 200)
                #expect(
                    try await serve.post(
                        "/api/2/envelope/", body: RelayFixture.eventEnvelope(shopID), headers: ServeFixture.auth
                    ).0 == 403)

                // Then each upstream receives its project's event, on its own project id, with its own key only
                try await wait(for: "both upstreams") {
                    let (shopCount, billingCount) = (
                        await shop.recorder.requestCount, await billing.recorder.requestCount
                    )
                    return shopCount >= 1 && billingCount >= 1
                }
                #expect(try await RelayFixture.received(by: shop.recorder).flatMap(\.eventIDs) == [shopID])
                #expect(try await RelayFixture.received(by: billing.recorder).flatMap(\.eventIDs) == [billingID])
                #expect(await shop.recorder.requests.first?.path == "/api/11/envelope/")
                #expect(await billing.recorder.requests.first?.path == "/api/22/envelope/")
                let shopHeaders = await shop.recorder.requests.map { $0.headers["x-sentry-auth"] ?? "" }
                let billingHeaders = await billing.recorder.requests.map { $0.headers["x-sentry-auth"] ?? "" }
                #expect(shopHeaders.allSatisfy { $0.contains(shopUpstreamKey) && !$0.contains(billingUpstreamKey) })
                #expect(billingHeaders.allSatisfy { $0.contains(billingUpstreamKey) && !$0.contains(shopUpstreamKey) })
            }
        }
    }

    @Test func aConfigFileThatIsNotRoutesIsRefusedWithItsPath() async throws {
        let logs = try ServeFixture.logDirectory()
        let config = try ServeFixture.logDirectory().appendingPathExtension("json")
        defer {
            try? FileManager.default.removeItem(at: logs)
            try? FileManager.default.removeItem(at: config)
        }
        try Data(#"{"routes": [{"project": "1", "key": "k", "upstream": "not a dsn"}]}"#.utf8).write(to: config)
        let outcome = try await BuiltFaultline.outcome(of: [
            "serve", "--port", "0", "--log-dir", logs.path, "--forward-config", config.path,
        ])
        #expect(outcome.status == 64)
        #expect(outcome.errors.contains("route 1 of \(config.path)"))
        #expect(outcome.errors.contains("not a dsn"))
    }

    @Test func twoRoutesForOneProjectAndKeyAreAConfigurationMistake() async throws {
        let logs = try ServeFixture.logDirectory()
        let config = try ServeFixture.logDirectory().appendingPathExtension("json")
        defer {
            try? FileManager.default.removeItem(at: logs)
            try? FileManager.default.removeItem(at: config)
        }
        let route = #"{"project": "1", "key": "k", "upstream": "http://abc@127.0.0.1:9/42"}"#
        try Data(#"{"routes": [\#(route), \#(route)]}"#.utf8).write(to: config)
        let outcome = try await BuiltFaultline.outcome(of: [
            "serve", "--port", "0", "--log-dir", logs.path, "--forward-config", config.path,
        ])
        #expect(outcome.status == 64)
        #expect(outcome.errors == "faultline serve: project 1 with key k has two routes: give it one\n")
    }
}
