import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Signs each request with the current credential (refreshed first when the authenticator says it expires soon)
/// and, when the server rejects it, refreshes once for every waiting request and replays the request with the new
/// credential.
///
/// A rejected replay is not refreshed again: it fails with the server's answer. A failed refresh fails the request
/// with ``RequestFailure/Reason/sessionExpired(_:)``.
public struct AuthenticationMiddleware<A: Authenticator>: APIMiddleware {
    /// The refresher that holds the credential; share one between clients that talk to the same server.
    public let refresher: TokenRefresher<A>

    /// Creates the middleware.
    public init(refresher: TokenRefresher<A>) {
        self.refresher = refresher
    }

    public func intercept<Value: Sendable>(
        _ request: URLRequest, context: RequestContext, next: APIMiddlewareNext<Value>
    ) async throws(RequestFailure) -> APIResponse<Value> {
        let signing: (credential: A.Credential, version: Int)
        do {
            signing = try await refresher.credentialForRequest(context)
        } catch {
            throw RequestFailure(.sessionExpired(error), context: context)
        }
        var signed = request
        refresher.authenticator.apply(signing.credential, to: &signed)
        do throws(RequestFailure) {
            return try await next(signed, context)
        } catch let rejection {
            guard case .server(let failure) = rejection.reason, refresher.authenticator.isCredentialRejected(failure)
            else { throw rejection }
            let replacement: (credential: A.Credential, version: Int)
            do {
                replacement = try await refresher.credential(replacing: signing.version, trigger: rejection.context)
            } catch {
                throw RequestFailure(.sessionExpired(error), context: rejection.context)
            }
            var replay = request
            refresher.authenticator.apply(replacement.credential, to: &replay)
            var replayContext = context
            replayContext.attempt = rejection.context.attempt + 1
            return try await next(replay, replayContext)
        }
    }
}
