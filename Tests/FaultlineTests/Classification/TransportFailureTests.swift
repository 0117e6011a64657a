import Faultline
import FaultlineTestServer
import Foundation
import LoopbackPorts
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Failures without an HTTP response are classified by family, never collapsed into "network error".
@Suite struct TransportFailureTests {
    @Test func aSlowResponseIsATimeoutAfterTheRetriesRanOut() async throws {
        try await SeedServer.run { server in
            let clock = FakeClock()
            let client = SeedClients.plain(server, clock: clock)

            let failure = await failure {
                try await client.send(
                    APIRequest<EmptyResponse>(
                        .get, "/slow", query: [.init(name: "ms", value: "2000")],
                        timeout: .milliseconds(200)))
            }

            #expect(failure?.transportFailure?.family == .timeout)
            #expect(failure?.context.attempt == 3)
            #expect(failure?.context.statusCode == nil)
            #expect(clock.sleeps.count == 2)
        }
    }

    @Test func aPortWithNothingListeningCannotConnect() async throws {
        let closed = try ClosedPort()
        defer { closed.release() }
        let client = APIClient(baseURL: URL(string: "http://127.0.0.1:\(closed.port)")!) { $0.middlewares = [] }

        let failure = await failure { try await client.send(APIRequest<EmptyResponse>(.get, "/health")) }

        #expect(failure?.transportFailure?.family == .cannotConnect)
        #expect(failure?.transportFailure?.code == URLError.cannotConnectToHost.rawValue)
    }

    @Test(arguments: [
        (URLError.Code.timedOut, TransportFailure.Family.timeout),
        (.notConnectedToInternet, .offline),
        (.dnsLookupFailed, .dns), (.cannotFindHost, .dns),
        (.secureConnectionFailed, .tls), (.serverCertificateUntrusted, .tls),
        (.networkConnectionLost, .connectionLost),
        (.cannotConnectToHost, .cannotConnect),
        (.badURL, .invalidRequest),
        (.badServerResponse, .badResponse),
        (.resourceUnavailable, .other),
    ])
    func urlErrorsMapToTheirFamily(code: URLError.Code, family: TransportFailure.Family) {
        let failure = TransportFailure(URLError(code))

        #expect(failure.family == family)
        #expect(failure.code == code.rawValue)
    }

    @Test func aRouteWithAnUnfilledPlaceholderIsAnInvalidRequest() async throws {
        let client = APIClient(baseURL: URL(string: "http://127.0.0.1:9")!)

        let failure = await failure { try await client.send(APIRequest<EmptyResponse>(.get, "/users/{id}")) }

        #expect(failure?.transportFailure?.family == .invalidRequest)
        #expect(failure?.transportFailure?.message.contains("/users/{id}") == true)
    }
}
