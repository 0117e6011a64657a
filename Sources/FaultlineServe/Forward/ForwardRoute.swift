import FaultlineReporting

/// A project and key that `faultline serve` accepts, and the upstream its envelopes are forwarded to: a
/// Sentry-compatible endpoint (Sentry, GlitchTip, Bugsink, another `faultline serve`) and the key it knows.
public struct ForwardRoute: Hashable, Sendable {
    /// The project id clients send to, in the request path (`/api/<project>/envelope/`).
    public var projectID: String
    /// The public key clients send, as `sentry_key`.
    public var publicKey: String
    /// Where their envelopes go, sent with this DSN's key.
    public var upstream: DSN

    /// A route from `projectID` and `publicKey` to `upstream`.
    public init(projectID: String, publicKey: String, upstream: DSN) {
        self.projectID = projectID
        self.publicKey = publicKey
        self.upstream = upstream
    }
}

/// Why forwarding routes cannot be served together: two routes name one project and key, or one upstream queue with
/// two different DSNs (keys). A mistake in the configuration, which `faultline serve` answers with exit status 64.
public struct ForwardRoutesConflict: Error, CustomStringConvertible {
    public let description: String
}
