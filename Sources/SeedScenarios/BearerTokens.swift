import FaultlineTestServer
import Foundation

/// An access token and the refresh token that renews it, and when the access token expires, when the server said.
public struct BearerTokens: Sendable, Equatable {
    public var accessToken: String
    public var refreshToken: String
    public var expiresAt: Date?

    public init(accessToken: String, refreshToken: String, expiresAt: Date? = nil) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
    }

    /// The tokens a seed server issued just now.
    public init(_ pair: TokenPair) {
        self.init(
            accessToken: pair.accessToken, refreshToken: pair.refreshToken,
            expiresAt: Date() + pair.expiresIn / .seconds(1))
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
