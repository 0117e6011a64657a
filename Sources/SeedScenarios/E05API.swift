import Faultline
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Seed 001's server: it answers only 200, 400 and 500, and says "your access token expired" with
/// `400 {"errorCode": "E05"}` instead of a 401.
package enum E05API {
    /// A post.
    package struct Post: Decodable, Sendable, Equatable {
        package let id: Int
        package let title: String
    }

    struct Tokens: Decodable, Sendable {
        let accessToken: String
        let refreshToken: String
    }

    /// The server's error contract: a flat `errorCode`.
    package static let errorContract = ErrorContract.flatCode(codeKey: "errorCode")

    /// Signs with `Authorization: Bearer`, treats `400` + `E05` as a rejected credential, refreshes at
    /// `POST /e05/auth/refresh`.
    package struct Authenticator: Faultline.Authenticator {
        private let refreshClient: APIClient

        /// Creates an authenticator that refreshes against `baseURL`.
        package init(baseURL: URL) {
            refreshClient = APIClient(baseURL: baseURL) {
                $0.errorContract = E05API.errorContract
                $0.middlewares = []
            }
        }

        package func apply(_ credential: BearerTokens, to request: inout URLRequest) {
            request.setValue("Bearer \(credential.accessToken)", forHTTPHeaderField: "Authorization")
        }

        package func refresh(_ credential: BearerTokens) async throws -> BearerTokens {
            let request = APIRequest<Tokens>(
                .post, "/e05/auth/refresh", body: ["refreshToken": credential.refreshToken])
            let tokens = try await refreshClient.send(request).value
            return BearerTokens(accessToken: tokens.accessToken, refreshToken: tokens.refreshToken)
        }

        package func isCredentialRejected(_ failure: ServerFailure) -> Bool {
            failure.statusCode == 400 && failure.code == "E05"
        }
    }
}
