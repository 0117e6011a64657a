import Faultline

/// The `error.kind` tag of an event: the classification of the failure it reports.
package enum FailureKind: String, Hashable, Sendable, CaseIterable {
    case transport
    case server
    case decoding
    case sessionExpired = "session_expired"

    /// The kind of `reason`, or `nil` for a cancellation, which is never reported.
    package init?(_ reason: RequestFailure.Reason) {
        switch reason {
        case .transport: self = .transport
        case .server: self = .server
        case .decoding: self = .decoding
        case .sessionExpired: self = .sessionExpired
        case .cancelled: return nil
        }
    }
}
