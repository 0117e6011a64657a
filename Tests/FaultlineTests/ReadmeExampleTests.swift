import Faultline
import FaultlineTestServer
import Foundation
import SeedScenarios
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The README's usage example, compiled and run against the seed server with the same calls.
@Suite struct ReadmeExampleTests {
    struct ReadmeAuthenticator: Authenticator {
        let refreshClient: APIClient

        func apply(_ credential: BearerTokens, to request: inout URLRequest) {
            request.setValue("Bearer \(credential.accessToken)", forHTTPHeaderField: "Authorization")
        }

        func refresh(_ credential: BearerTokens) async throws -> BearerTokens {
            let tokens = try await refreshClient.send(
                APIRequest<BoletoAPI.Envelope<BoletoAPI.Tokens>>(
                    .post, "/boleto/auth/refresh", body: ["refreshToken": credential.refreshToken])
            ).value.data!
            return BearerTokens(accessToken: tokens.accessToken, refreshToken: tokens.refreshToken)
        }
    }

    @Test func theReadmeExampleRunsAsWritten() async throws {
        try await SeedServer.run { server in
            let saved = BearerTokens(await server.state.issueTokens(for: .boleto))
            let refreshClient = APIClient(baseURL: server.baseURL) {
                $0.errorContract = .envelope()
                $0.middlewares = []
            }
            let refresher = TokenRefresher(
                authenticator: ReadmeAuthenticator(refreshClient: refreshClient), credential: saved)
            let client = APIClient(baseURL: server.baseURL.appendingPathComponent("boleto")) {
                $0.errorContract = .envelope()
                $0.codeCatalog = ServerCodeCatalog(
                    ranges: [40000...40099: .badRequest, 40100...40199: .unauthorized, 40400...40499: .notFound],
                    exceptions: [40091: .notFound])
                $0.middlewares = [RetryMiddleware(), AuthenticationMiddleware(refresher: refresher)]
            }
            await server.state.expireAccessTokens(of: .boleto)

            var outcomes: [String] = []
            for id in ["42", "40"] {
                do throws(RequestFailure) {
                    let user = try await client.send(
                        APIRequest<BoletoAPI.Envelope<BoletoAPI.User>>(.get, "/users/{id}", pathParameters: ["id": id])
                    ).value.data
                    outcomes.append("user \(user?.id ?? 0)")
                } catch {
                    switch error.reason {
                    case .server(let failure) where failure.code == 40013:
                        outcomes.append(failure.message ?? "")
                    case .decoding(let failure):
                        outcomes.append(failure.codingPath)
                    case .sessionExpired:
                        outcomes.append("login")
                    case .cancelled:
                        break
                    default:
                        outcomes.append(error.localizedDescription)
                    }
                }
            }

            #expect(outcomes == ["user 42", "data.profileImage"])
            #expect(await refresher.currentCredential != saved)
        }
    }
}
