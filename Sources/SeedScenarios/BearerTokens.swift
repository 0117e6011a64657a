import FaultlineTestServer
import Foundation

/// An access token and the refresh token that renews it, and when the access token expires, when the server said.
package struct BearerTokens: Sendable, Equatable {
    package var accessToken: String
    package var refreshToken: String
    package var expiresAt: Date?

    package init(accessToken: String, refreshToken: String, expiresAt: Date? = nil) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
    }

    /// The tokens a seed server issued just now.
    package init(_ pair: TokenPair) {
        self.init(
            accessToken: pair.accessToken, refreshToken: pair.refreshToken,
            expiresAt: Date() + pair.expiresIn / .seconds(1))
    }
}

/// A seed server answered a refresh with a success that carried no tokens.
package enum SeedAPIError: Error, CustomStringConvertible {
    case missingTokens(route: String)

    package var description: String {
        switch self {
        case .missingTokens(let route): "\(route) succeeded without tokens in its body"
        }
    }
}
