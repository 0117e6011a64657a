import Faultline
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Seeds 002 and 004's server: a plain `401` (empty body, `WWW-Authenticate`) and an OAuth 2 token endpoint.
public enum PlainAPI {
    /// The signed-in user's profile.
    public struct Profile: Decodable, Sendable, Equatable {
        public let id: Int
        public let name: String
    }

    struct Tokens: Decodable, Sendable {
        let accessToken: String
        let refreshToken: String

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case refreshToken = "refresh_token"
        }
    }

    /// The token endpoint's error contract (RFC 6749 §5.2: `{"error": "invalid_grant", "error_description": …}`).
    public static let errorContract = ErrorContract.flatCode(codeKey: "error", messageKey: "error_description")

    /// The classic interceptor: `Authorization: Bearer` in, refresh on `401`.
    public struct Authenticator: Faultline.Authenticator {
        private let refreshClient: APIClient

        /// Creates an authenticator that refreshes against `baseURL`.
        public init(baseURL: URL) {
            refreshClient = APIClient(baseURL: baseURL) {
                $0.errorContract = PlainAPI.errorContract
                $0.middlewares = []
            }
        }

        public func apply(_ credential: BearerTokens, to request: inout URLRequest) {
            request.setValue("Bearer \(credential.accessToken)", forHTTPHeaderField: "Authorization")
        }

        public func refresh(_ credential: BearerTokens) async throws -> BearerTokens {
            let request = APIRequest<Tokens>(
                .post, "/plain/oauth/token",
                body: ["grant_type": "refresh_token", "refresh_token": credential.refreshToken])
            let tokens = try await refreshClient.send(request).value
            return BearerTokens(accessToken: tokens.accessToken, refreshToken: tokens.refreshToken)
        }
    }
}
