/// An access token and the refresh token issued with it.
package struct TokenPair: Sendable, Equatable {
    /// The token that authenticated routes accept, as `Authorization: Bearer <accessToken>`.
    package let accessToken: String
    /// The single-use token that the tenant's refresh endpoint trades for a new pair.
    package let refreshToken: String
    /// How long the access token is valid from when it was issued (OAuth 2's `expires_in`).
    package let expiresIn: Duration

    /// Creates a pair, for example a forged one the server never issued.
    package init(accessToken: String, refreshToken: String, expiresIn: Duration = .seconds(3600)) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
    }
}
