import Foundation

/// The session ended: the credential could not be refreshed, so the user has to sign in again.
///
/// One expiry is shared by every request that was waiting on the failed refresh: they all fail with the same value
/// (the same ``id``), and one ``SessionEvent/expired(_:trigger:)`` is published for it.
public struct SessionExpiry: Error, Sendable, CustomStringConvertible {
    /// Why the session ended.
    public enum Cause: Sendable {
        /// The authenticator's refresh threw this error (for example the refresh token itself expired: `40101`).
        case refreshFailed(any Error)
        /// More refreshes than the ``RefreshWindow`` allows: the server keeps rejecting fresh credentials.
        case refreshLimitExceeded(RefreshWindow)
        /// There is no credential to send (signed out, or never signed in).
        case missingCredential
    }

    /// Identifies this expiry: every request failed by it carries the same identifier.
    public let id: UUID
    /// Why the session ended.
    public let cause: Cause

    /// Creates an expiry with a new identifier.
    public init(cause: Cause) {
        self.id = UUID()
        self.cause = cause
    }

    public var description: String {
        switch cause {
        case .refreshFailed(let error): "session expired: the credential refresh failed: \(error)"
        case .refreshLimitExceeded(let window): "session expired: more than \(window) refreshes"
        case .missingCredential: "session expired: there is no credential; sign in first"
        }
    }
}
