import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Knows how to sign requests with a credential, how to refresh it, and which failures mean it was rejected.
///
/// ``TokenRefresher`` coordinates the refreshes and ``AuthenticationMiddleware`` applies them; an authenticator only
/// describes one server's rules. The refresh should use a client *without* an ``AuthenticationMiddleware`` (or
/// URLSession directly), or it would wait for itself.
public protocol Authenticator: Sendable {
    /// What signs a request, typically an access token and the refresh token that renews it.
    associatedtype Credential: Sendable

    /// Signs `request` with `credential`, for example with `Authorization: Bearer <access token>`.
    func apply(_ credential: Credential, to request: inout URLRequest)

    /// Obtains a new credential from the expired one.
    ///
    /// - Throws: Any error when the credential cannot be refreshed (the refresh token expired, say); the session then
    ///   expires and every waiting request fails with the same ``SessionExpiry``.
    func refresh(_ credential: Credential) async throws -> Credential

    /// Whether `credential` must be refreshed before it signs another request, as Alamofire's
    /// `AuthenticationCredential.requiresRefresh`: its access token expires within a margin the app chooses (a JWT's
    /// `exp`, or the `expires_in` the token endpoint answered), so a refresh now saves a round trip to a certain
    /// rejection. Requests then wait for one refresh, as they do after a rejection.
    ///
    /// The default is `false`: the credential is refreshed only when the server rejects it.
    func requiresRefresh(_ credential: Credential) -> Bool

    /// Whether `failure` means the server rejected the credential, so a refresh and a replay can fix it.
    ///
    /// The default is a `401` status. A server that says it otherwise overrides it: one that answers an expired token
    /// with `400 {"errorCode": "E05"}` returns `failure.statusCode == 400 && failure.code == "E05"`.
    func isCredentialRejected(_ failure: ServerFailure) -> Bool
}

extension Authenticator {
    /// A credential is refreshed only when the server rejects it.
    public func requiresRefresh(_ credential: Credential) -> Bool {
        false
    }

    /// A `401 Unauthorized` rejects the credential.
    public func isCredentialRejected(_ failure: ServerFailure) -> Bool {
        failure.statusCode == 401
    }
}
