import Faultline
import FaultlineRecords
import FaultlineReporting
import FaultlineTestServer
import Foundation
import LoopbackPorts
import SeedScenarios
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An app on another HTTP stack (here URLSession itself) records its requests with `RequestRecording` and gets what
/// `APIClient`'s capture middleware gives: failures captured by route template, every request counted with its
/// duration, its trace carried to the server and sent as spans.
@Suite struct RequestRecordingTests {
    static let users = RequestOutcomes.Route(method: "GET", route: "/boleto/users/{id}")
    static let travels = RequestOutcomes.Route(method: "POST", route: "/boleto/travels")

    @Test func requestsOfAnotherStackAreCountedTracedAndTheirFailuresCapturedByRouteTemplate() async throws {
        let log = try LogDirectory()
        defer { log.remove() }
        try await SeedServer.run { server in
            // Given a reporter that records every trace, and a signed-in session on URLSession
            var options = Reporter.Options(logDirectory: log.url, environmentVariables: [:])
            options.tracesSampleRate = 1
            let reporter = try Reporter(options: options)
            let tokens = await server.state.issueTokens(for: .boleto)
            let closed = try ClosedPort()
            defer { closed.release() }

            // When the app sends two users' requests, a travel the server refuses with a business code, and a
            // request to a port nothing listens on, each through a recording
            var failures: [RequestFailure?] = []
            let requests: [(String, String, String, URL)] = [
                ("GET", "/boleto/users/1", "/boleto/users/{id}", server.baseURL),
                ("GET", "/boleto/users/2", "/boleto/users/{id}", server.baseURL),
                ("POST", "/boleto/travels", "/boleto/travels", server.baseURL),
                ("GET", "/users/3", "/users/{id}", URL(string: "http://127.0.0.1:\(closed.port)")!),
            ]
            for (method, path, route, base) in requests {
                var request = URLRequest(url: URL(string: base.absoluteString + path)!)
                request.httpMethod = method
                request.setValue("Bearer \(tokens.accessToken)", forHTTPHeaderField: "Authorization")
                let recording = RequestRecording(reporter: reporter, request: request, route: route, baseURL: base)
                do {
                    let (body, response) = try await URLSession.shared.data(for: recording.request)
                    failures.append(await recording.finish(response: response as? HTTPURLResponse, body: body))
                } catch {
                    failures.append(await recording.finish(response: nil, body: nil, error: error))
                }
            }
            #expect(await reporter.close(timeout: patience))

            // Then the users were successes, the travel a server failure with its code, the last a transport failure
            #expect(failures.prefix(2).allSatisfy { $0 == nil })
            let travel = try #require(failures[2]?.serverFailure)
            #expect(travel.statusCode >= 400 && travel.serverError?.code != nil)
            guard case .transport? = failures[3]?.reason else {
                Issue.record("not a transport failure: \(String(describing: failures[3]))")
                return
            }
            // and both failures are events named by their route template
            let events = try log.events()
            #expect(events.map { $0.tags["http.route"] } == ["/boleto/travels", "/users/{id}"])
            #expect(events.allSatisfy { $0.tags["error.kind"] != nil })
            // and every request is counted by route and outcome
            var counted: [RequestOutcomes.Route: [String: Int]] = [:]
            for line in try log.requestOutcomes() {
                for (route, tally) in line.routes {
                    counted[route, default: [:]].merge(tally.outcomes, uniquingKeysWith: +)
                }
            }
            #expect(counted[Self.users] == ["ok": 2])
            #expect(counted[Self.travels] == ["server.4xx": 1])
            #expect(counted[RequestOutcomes.Route(method: "GET", route: "/users/{id}")] == ["transport": 1])
            // and the server's requests carried their trace, which the transactions (one per request) continue
            let traces = await server.state.receivedTraces
            #expect(traces.count == 3)
            let transactions = try log.transactions()
            #expect(transactions.count == 4)
            let traceIDs = Set(
                transactions.compactMap { $0["contexts"]?.objectValue?["trace"]?.objectValue?["trace_id"]?.stringValue }
            )
            #expect(Set(traces.map(\.traceID)).isSubset(of: traceIDs))
        }
    }
}
