import Hummingbird

/// Seeds 002 and 004's classic bearer server under `/plain`: any refused token (expired, unknown or missing) is a
/// bare `401` with `WWW-Authenticate: Bearer error="invalid_token"`, and the token endpoint follows OAuth 2
/// (RFC 6749 §5.2 for its errors).
struct PlainRoutes {
    private struct TokenRequest: Decodable {
        let grantType: String
        let refreshToken: String

        private enum CodingKeys: String, CodingKey {
            case grantType = "grant_type"
            case refreshToken = "refresh_token"
        }
    }

    private struct TokenResponse: Encodable, Sendable {
        let accessToken: String
        let refreshToken: String
        let tokenType = "Bearer"
        /// Whole seconds, as RFC 6749 §5.1 has it.
        let expiresIn: Int

        private enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case refreshToken = "refresh_token"
            case tokenType = "token_type"
            case expiresIn = "expires_in"
        }
    }

    private struct TokenError: Encodable, Sendable {
        let error = "invalid_grant"
        let errorDescription = "The refresh token is invalid or expired."

        private enum CodingKeys: String, CodingKey {
            case error
            case errorDescription = "error_description"
        }
    }

    private struct Profile: Encodable, Sendable {
        let id = 1
        let name = "plain-user"
    }

    let state: SeedServerState

    func add(to router: Router<BasicRequestContext>) {
        let plain = router.group("plain")
        plain.post("oauth/token", use: token)
        plain.group()
            .add(middleware: AccessTokenGate(tenant: .plain, state: state, rejectionResponse: Self.rejection))
            .get("profile", use: profile)
    }

    private static func rejection(_: AccessTokenRejection) -> Response {
        .empty(status: .unauthorized, headers: [.wwwAuthenticate: #"Bearer error="invalid_token""#])
    }

    /// `POST /plain/oauth/token` with `{"grant_type": "refresh_token", "refresh_token": …}`: a new pair, or `400`
    /// `invalid_grant`.
    private func token(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let body = await request.decodedJSONBody(as: TokenRequest.self)
        let refreshToken = body?.grantType == "refresh_token" ? body?.refreshToken : nil
        guard let pair = try await state.refresh(presenting: refreshToken, to: .plain) else {
            return try .json(TokenError(), status: .badRequest)
        }
        return try .json(
            TokenResponse(
                accessToken: pair.accessToken, refreshToken: pair.refreshToken,
                expiresIn: Int((pair.expiresIn / .seconds(1)).rounded(.up))))
    }

    /// `GET /plain/profile`: the signed-in user.
    private func profile(_ request: Request, context: BasicRequestContext) throws -> Response {
        try .json(Profile())
    }
}
