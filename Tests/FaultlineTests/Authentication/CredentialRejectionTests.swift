import Faultline
import FaultlineTestServer
import Foundation
import SeedScenarios
import Testing

/// S2, S3: "is the credential rejected?" is a predicate over status and body, and refreshing never disables
/// classification.
@Suite struct CredentialRejectionTests {
    static func e05Client(_ server: RunningSeedServer, tokens: TokenPair) -> APIClient {
        let refresher = TokenRefresher(
            authenticator: E05API.Authenticator(baseURL: server.baseURL), credential: BearerTokens(tokens))
        return APIClient(baseURL: server.baseURL) {
            $0.errorContract = E05API.errorContract
            $0.middlewares = [AuthenticationMiddleware(refresher: refresher)]
        }
    }

    static func plainClient(_ server: RunningSeedServer, tokens: TokenPair) -> APIClient {
        let refresher = TokenRefresher(
            authenticator: PlainAPI.Authenticator(baseURL: server.baseURL), credential: BearerTokens(tokens))
        return APIClient(baseURL: server.baseURL) { $0.middlewares = [AuthenticationMiddleware(refresher: refresher)] }
    }

    @Test func e05OnA400IsRecognisedAsExpiryRefreshedAndReplayed() async throws {
        try await SeedServer.run { server in
            // Given a server that signals expiry with 400 {"errorCode": "E05"}
            let client = Self.e05Client(server, tokens: await server.state.issueTokens(for: .e05))
            await server.state.expireAccessTokens(of: .e05)

            // When a request meets it
            let response = try await client.send(
                APIRequest<E05API.Post>(
                    .get, "/e05/posts/{id}",
                    pathParameters: ["id": "12"]))

            // Then the client refreshed and replayed it
            #expect(response.value.id == 12)
            #expect(response.value.title == "post-12")
            #expect(response.context.attempt == 2)
            #expect(await server.state.refreshCount(of: .e05) == 1)
        }
    }

    @Test func anotherCodeOnA400IsNotMistakenForExpiry() async throws {
        try await SeedServer.run { server in
            // Given a token the server never issued (it answers 400 E02, not E05)
            let client = Self.e05Client(server, tokens: TokenPair(accessToken: "forged", refreshToken: "forged"))

            let failure = await failure {
                try await client.send(APIRequest<E05API.Post>(.get, "/e05/posts/{id}", pathParameters: ["id": "1"]))
            }

            #expect(failure?.serverFailure?.statusCode == 400)
            #expect(failure?.serverFailure?.code == "E02")
            #expect(await server.state.refreshCount(of: .e05) == 0)
        }
    }

    @Test func aPlain401IsRefreshedAndAnInvalidGrantExpiresTheSession() async throws {
        try await SeedServer.run { server in
            let client = Self.plainClient(server, tokens: await server.state.issueTokens(for: .plain))
            await server.state.expireAccessTokens(of: .plain)

            let profile = try await client.send(APIRequest<PlainAPI.Profile>(.get, "/plain/profile")).value
            #expect(profile.name == "plain-user")

            await server.state.expireAccessTokens(of: .plain)
            await server.state.expireRefreshTokens(of: .plain)
            let failure = await failure { try await client.send(APIRequest<PlainAPI.Profile>(.get, "/plain/profile")) }

            guard case .refreshFailed(let cause) = failure?.sessionExpiry?.cause else {
                Issue.record("expected a refresh failure, got \(String(describing: failure))")
                return
            }
            let refreshFailure = try #require(cause as? RequestFailure)
            #expect(refreshFailure.serverFailure?.code == "invalid_grant")
            #expect(refreshFailure.serverFailure?.message == "The refresh token is invalid or expired.")
            #expect(await server.state.refreshCount(of: .plain) == 2)
        }
    }

    @Test func aReplayedRequestIsStillClassifiedWithItsBusinessCode() async throws {
        try await SeedServer.run { server in
            // Given a Boleto client whose access token expired
            let (client, _) = SeedClients.boleto(server, tokens: await server.state.issueTokens(for: .boleto))
            await server.state.expireAccessTokens(of: .boleto)

            // When a request is refreshed, replayed, and then fails for a business reason
            let failure = await failure {
                try await client.send(
                    APIRequest<EmptyResponse>(
                        .patch, "/boleto/travels/{id}",
                        pathParameters: ["id": "3"]))
            }

            // Then that failure is classified as usual, at attempt 2
            #expect(failure?.serverFailure?.statusCode == 403)
            #expect(failure?.serverFailure?.code == 40304)
            #expect(failure?.serverFailure?.category == .forbidden)
            #expect(failure?.context.attempt == 2)
            #expect(await server.state.refreshCount(of: .boleto) == 1)
        }
    }
}
