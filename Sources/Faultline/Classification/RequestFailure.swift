import Foundation

/// Why a request failed, with the context of the request: the one error type every layer of an app maps from.
///
/// ```swift
/// do {
///     let user = try await client.send(request).value
/// } catch {
///     switch error.reason {
///     case .server(let failure) where failure.code == 40013: showAlert(failure.message)
///     case .sessionExpired: showLoginScreen()
///     case .cancelled: break
///     default: showAlert(error.localizedDescription)
///     }
/// }
/// ```
public struct RequestFailure: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// The classified cause.
    public enum Reason: Sendable {
        /// No HTTP response: timeout, offline, DNS, TLS, connection lost, …
        case transport(TransportFailure)
        /// The server answered with a failure: status, business code, message.
        case server(ServerFailure)
        /// The response had a success status but its body did not decode.
        case decoding(DecodingFailure)
        /// The credential could not be refreshed; the user has to sign in again.
        case sessionExpired(SessionExpiry)
        /// The request was cancelled. Not an error to report or show.
        case cancelled
    }

    /// The classified cause.
    public let reason: Reason
    /// The request that failed: method, route template, attempt, request id and status.
    public let context: RequestContext

    /// Creates a failure.
    public init(_ reason: Reason, context: RequestContext) {
        self.reason = reason
        self.context = context
    }

    /// The server failure, when the reason is ``Reason/server(_:)``.
    public var serverFailure: ServerFailure? {
        if case .server(let failure) = reason { return failure }
        return nil
    }

    /// Whether the request was cancelled.
    public var isCancelled: Bool {
        if case .cancelled = reason { return true }
        return false
    }

    public var description: String {
        let cause: String =
            switch reason {
            case .transport(let failure): "transport failure: \(failure)"
            case .server(let failure): "server failure: \(failure)"
            case .decoding(let failure): "decoding failure: \(failure)"
            case .sessionExpired(let expiry): String(describing: expiry)
            case .cancelled: "cancelled"
            }
        return "\(context): \(cause)"
    }

    /// The server's message when it sent one (it is meant for the user), else a description of the failure.
    public var errorDescription: String? { serverFailure?.message ?? description }
}
