import FaultlineTestServer

/// An access token and the refresh token that renews it.
public struct BearerTokens: Sendable, Equatable {
    public var accessToken: String
    public var refreshToken: String

    public init(accessToken: String, refreshToken: String) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
    }

    /// The tokens a seed server issued.
    public init(_ pair: TokenPair) {
        self.init(accessToken: pair.accessToken, refreshToken: pair.refreshToken)
    }
}

/// A seed server answered a refresh with a success that carried no tokens.
public enum SeedAPIError: Error, CustomStringConvertible {
    case missingTokens(route: String)

    public var description: String {
        switch self {
        case .missingTokens(let route): "\(route) succeeded without tokens in its body"
        }
    }
}
