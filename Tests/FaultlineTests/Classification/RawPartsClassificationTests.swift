import Faultline
import FaultlineTestServer
import Foundation
import LoopbackPorts
import SeedScenarios
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An app on another HTTP stack hands the classifier what its stack produced (request, response, body, transport or
/// decoding error) and gets the reason `APIClient` would have given for the same request.
@Suite struct RawPartsClassificationTests {
    static let classifier = FailureClassifier(contract: BoletoAPI.errorContract, catalog: BoletoAPI.codeCatalog)

    @Test(arguments: ["/boleto/errors/TRAVEL_ALREADY_LOCKED", "/proxy/users/7", "/e05/crash"])
    func aFailedResponseFetchedWithURLSessionIsTheServerFailureTheClientSees(path: String) async throws {
        try await SeedServer.run { server in
            // Given the failure the client reports for a route
            let client = BoletoAPI.client(baseURL: server.baseURL, middlewares: [])
            let expected = try #require(
                await failure { try await client.send(APIRequest<EmptyResponse>(.get, path)) }?.serverFailure)

            // When the same request is made with URLSession and its parts are classified
            let (body, response) = try await Self.send(URLRequest(url: Self.url(path, on: server)))
            let reason = Self.classifier.reason(response: response, body: body)

            // Then it is the same server failure
            guard case .server(let failure) = reason else {
                Issue.record("expected a server failure, got \(String(describing: reason))")
                return
            }
            #expect(failure.statusCode == expected.statusCode)
            #expect(failure.code == expected.code)
            #expect(failure.message == expected.message)
            #expect(failure.category == expected.category)
            #expect(failure.bodySize == expected.bodySize)
            #expect(failure.bodyPreview?.text == expected.bodyPreview?.text)
        }
    }

    @Test func aSuccessfulBodyThatDidNotDecodeIsADecodingFailureNamingTheTypeAndPath() async throws {
        try await SeedServer.run { server in
            // Given user 40, whose profile image is null, and user 7, whose is not, fetched with URLSession
            let tokens = BearerTokens(await server.state.issueTokens(for: .boleto))
            var reasons: [RequestFailure.Reason?] = []
            for id in [40, 7] {
                var request = URLRequest(url: Self.url("/boleto/users/\(id)", on: server))
                BoletoAPI.Authenticator(baseURL: server.baseURL).apply(tokens, to: &request)
                let (body, response) = try await Self.send(request)
                #expect(response?.statusCode == 200)

                // When each body is decoded and the parts are classified
                let decodingError: (any Error)?
                do {
                    _ = try JSONDecoder().decode(BoletoAPI.Envelope<BoletoAPI.User>.self, from: body)
                    decodingError = nil
                } catch {
                    decodingError = error
                }
                reasons.append(
                    Self.classifier.reason(
                        response: response, body: body, decodingError: decodingError,
                        decodedType: BoletoAPI.Envelope<BoletoAPI.User>.self))
            }

            // Then user 40's is a decoding failure with the type and the coding path, and user 7's no failure
            guard case .decoding(let decoding) = reasons.first else {
                Issue.record("expected a decoding failure, got \(String(describing: reasons.first))")
                return
            }
            #expect(decoding.codingPath == "data.profileImage")
            #expect(decoding.typeName == "Envelope<User>")
            #expect(reasons.count == 2)
            #expect(reasons.last.map { $0 == nil } == true)
        }
    }

    @Test func aRefusedConnectionIsATransportFailureAndACancellationIsNoFailure() async throws {
        // Given a port where nothing listens
        let closed = try ClosedPort()
        defer { closed.release() }
        let url = try #require(URL(string: "http://127.0.0.1:\(closed.port)/health"))

        // When URLSession's error is classified, and a cancellation's
        var transportError: (any Error)?
        do {
            _ = try await URLSession.shared.data(for: URLRequest(url: url))
        } catch {
            transportError = error
        }
        let refused = Self.classifier.reason(response: nil, body: nil, transportError: transportError)
        let cancelled = Self.classifier.reason(response: nil, body: nil, transportError: CancellationError())

        // Then the first cannot connect, and the cancellation is one (never captured)
        guard case .transport(let transport) = refused else {
            Issue.record("expected a transport failure, got \(String(describing: refused))")
            return
        }
        #expect(transport.family == .cannotConnect)
        guard case .cancelled = cancelled else {
            Issue.record("expected a cancellation, got \(String(describing: cancelled))")
            return
        }
    }

    @Test func aResponseThatIsNotHTTPIsABadResponse() throws {
        // Given a response of a non-HTTP scheme, which URLSession gives for file URLs
        let response = URLResponse(
            url: URL(fileURLWithPath: "/tmp/users.json"), mimeType: "application/json", expectedContentLength: 2,
            textEncodingName: nil)

        // When its parts are classified
        let reason = Self.classifier.reason(response: response, body: Data("{}".utf8))

        // Then it is a transport failure of the badResponse family
        guard case .transport(let transport) = reason else {
            Issue.record("expected a transport failure, got \(String(describing: reason))")
            return
        }
        #expect(transport.family == .badResponse)
        #expect(transport.code == URLError.badServerResponse.rawValue)
    }

    /// `path` on the seed server.
    private static func url(_ path: String, on server: RunningSeedServer) -> URL {
        URL(string: server.baseURL.absoluteString + path) ?? server.baseURL
    }

    /// Sends `request` through URLSession; returns the body and the HTTP response.
    private static func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse?) {
        let (data, response) = try await URLSession.shared.data(for: request)
        return (data, response as? HTTPURLResponse)
    }
}
