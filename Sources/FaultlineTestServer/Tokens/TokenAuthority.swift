/// The tokens of one tenant: issues `<tenant>-access-<n>` / `<tenant>-refresh-<n>` pairs whose access tokens expire
/// after the tenant's lifetime or when told to, and redeems refresh tokens exactly once.
struct TokenAuthority: Sendable {
    private let tenant: Tenant
    private var issuedPairs = 0
    /// How long the access tokens issued from now on are valid.
    var accessTokenLifetime = Duration.seconds(3600)
    /// The valid access tokens, with the instant each expires.
    private var validAccessTokens: [String: ContinuousClock.Instant] = [:]
    private var expiredAccessTokens: Set<String> = []
    private var redeemableRefreshTokens: Set<String> = []

    init(tenant: Tenant) {
        self.tenant = tenant
    }

    /// Issues a new valid pair.
    mutating func issue() -> TokenPair {
        issuedPairs += 1
        let pair = TokenPair(
            accessToken: "\(tenant.rawValue)-access-\(issuedPairs)",
            refreshToken: "\(tenant.rawValue)-refresh-\(issuedPairs)", expiresIn: accessTokenLifetime)
        validAccessTokens[pair.accessToken] = .now + accessTokenLifetime
        redeemableRefreshTokens.insert(pair.refreshToken)
        return pair
    }

    /// Expires every access token issued so far.
    mutating func expireAccessTokens() {
        expiredAccessTokens.formUnion(validAccessTokens.keys)
        validAccessTokens.removeAll()
    }

    /// Expires every refresh token issued so far.
    mutating func expireRefreshTokens() {
        redeemableRefreshTokens.removeAll()
    }

    /// Why `accessToken` is refused, or `nil` when it is valid.
    func rejection(of accessToken: String) -> AccessTokenRejection? {
        if let expiresAt = validAccessTokens[accessToken] { return ContinuousClock.now < expiresAt ? nil : .expired }
        return expiredAccessTokens.contains(accessToken) ? .expired : .unknown
    }

    /// Trades a redeemable refresh token for a new pair; the token can never be redeemed again. Returns `nil` for a
    /// token that is unknown, expired or already used.
    mutating func redeem(_ refreshToken: String) -> TokenPair? {
        guard redeemableRefreshTokens.remove(refreshToken) != nil else { return nil }
        return issue()
    }
}

/// Why an authenticated route refuses a request; each tenant words these differently.
enum AccessTokenRejection: Sendable, Equatable {
    /// The token was issued by this tenant and has since been expired.
    case expired
    /// The tenant never issued the token.
    case unknown
    /// The request carried no `Authorization` header.
    case missing
}
