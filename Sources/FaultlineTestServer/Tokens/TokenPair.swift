/// An access token and the refresh token issued with it.
public struct TokenPair: Sendable, Equatable {
    /// The token that authenticated routes accept, as `Authorization: Bearer <accessToken>`.
    public let accessToken: String
    /// The single-use token that the tenant's refresh endpoint trades for a new pair.
    public let refreshToken: String
    /// How long the access token is valid from when it was issued (OAuth 2's `expires_in`).
    public let expiresIn: Duration

    /// Creates a pair, for example a forged one the server never issued.
    public init(accessToken: String, refreshToken: String, expiresIn: Duration = .seconds(3600)) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
    }
}
