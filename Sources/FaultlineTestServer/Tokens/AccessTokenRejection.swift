/// Why an authenticated route refuses a request; each tenant words these differently.
enum AccessTokenRejection: Sendable, Equatable {
    /// The token was issued by this tenant and has since been expired.
    case expired
    /// The tenant never issued the token.
    case unknown
    /// The request carried no `Authorization` header.
    case missing
}
