import Faultline
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Seeds 002 and 004's server: a plain `401` (empty body, `WWW-Authenticate`) and an OAuth 2 token endpoint.
package enum PlainAPI {
    /// The signed-in user's profile.
    package struct Profile: Decodable, Sendable, Equatable {
        package let id: Int
        package let name: String
    }

    struct Tokens: Decodable, Sendable {
        let accessToken: String
        let refreshToken: String
        /// Seconds.
        let expiresIn: Double?

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case refreshToken = "refresh_token"
            case expiresIn = "expires_in"
        }
    }

    /// The token endpoint's error contract (RFC 6749 §5.2: `{"error": "invalid_grant", "error_description": …}`).
    package static let errorContract = ErrorContract.flatCode(codeKey: "error", messageKey: "error_description")

    /// The classic interceptor: `Authorization: Bearer` in, refresh on `401`, and, with a margin, before the access
    /// token's `expires_in` runs out.
    package struct Authenticator: Faultline.Authenticator {
        private let refreshClient: APIClient
        private let refreshMargin: Duration?
        private let now: @Sendable () -> Date

        /// Creates an authenticator that refreshes against `baseURL`: when the server rejects the access token, and,
        /// with a `refreshMargin`, once the token expires within it, as `now` tells the time (a test moves it).
        package init(baseURL: URL, refreshMargin: Duration? = nil, now: @escaping @Sendable () -> Date = { Date() }) {
            refreshClient = APIClient(baseURL: baseURL) {
                $0.errorContract = PlainAPI.errorContract
                $0.middlewares = []
            }
            self.refreshMargin = refreshMargin
            self.now = now
        }

        package func requiresRefresh(_ credential: BearerTokens) -> Bool {
            guard let refreshMargin, let expiresAt = credential.expiresAt else { return false }
            return expiresAt.timeIntervalSince(now()) < refreshMargin / .seconds(1)
        }

        package func apply(_ credential: BearerTokens, to request: inout URLRequest) {
            request.setValue("Bearer \(credential.accessToken)", forHTTPHeaderField: "Authorization")
        }

        package func refresh(_ credential: BearerTokens) async throws -> BearerTokens {
            let request = APIRequest<Tokens>(
                .post, "/plain/oauth/token",
                body: ["grant_type": "refresh_token", "refresh_token": credential.refreshToken])
            let received = now()
            let tokens = try await refreshClient.send(request).value
            return BearerTokens(
                accessToken: tokens.accessToken, refreshToken: tokens.refreshToken,
                expiresAt: tokens.expiresIn.map { received + $0 })
        }
    }
}
