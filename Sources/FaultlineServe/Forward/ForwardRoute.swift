import FaultlineRecords
import FaultlineReporting

/// A project and key that `faultline serve` accepts, and the upstream its envelopes are forwarded to: a
/// Sentry-compatible endpoint (Sentry, GlitchTip, Bugsink, another `faultline serve`) and the key it knows.
package struct ForwardRoute: Hashable, Sendable {
    /// The project id clients send to, in the request path (`/api/<project>/envelope/`).
    package var projectID: String
    /// The public key clients send, as `sentry_key`.
    package var publicKey: String
    /// Where their envelopes go, sent with this DSN's key.
    package var upstream: DSN

    /// A route from `projectID` and `publicKey` to `upstream`.
    package init(projectID: String, publicKey: String, upstream: DSN) {
        self.projectID = projectID
        self.publicKey = publicKey
        self.upstream = upstream
    }
}

/// Why forwarding routes cannot be served together: two routes name one project and key, or one upstream queue with
/// two different DSNs (keys). A mistake in the configuration, which `faultline serve` answers with exit status 64.
package struct ForwardRoutesConflict: Error, CustomStringConvertible {
    package let description: String
}
