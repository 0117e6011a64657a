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

    /// Whether `failure` means the server rejected the credential, so a refresh and a replay can fix it.
    ///
    /// The default is a `401` status. A server that says it otherwise overrides it: one that answers an expired token
    /// with `400 {"errorCode": "E05"}` returns `failure.statusCode == 400 && failure.code == "E05"`.
    func isCredentialRejected(_ failure: ServerFailure) -> Bool
}

extension Authenticator {
    /// A `401 Unauthorized` rejects the credential.
    public func isCredentialRejected(_ failure: ServerFailure) -> Bool {
        failure.statusCode == 401
    }
}
