import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A request that got no HTTP response: the network, DNS, TLS or the connection failed.
public struct TransportFailure: Hashable, Sendable, CustomStringConvertible {
    /// The kind of transport failure, coarse enough to group and to decide on a retry.
    public enum Family: String, Hashable, Sendable, CaseIterable {
        /// The request timed out.
        case timeout
        /// The device is offline or not allowed to use the network.
        case offline
        /// The host name could not be resolved.
        case dns
        /// The TLS handshake or certificate check failed.
        case tls
        /// The connection was lost while the request was in flight.
        case connectionLost
        /// Nothing accepted the connection (refused, unreachable host).
        case cannotConnect
        /// The request could not be built or sent as given (bad or unsupported URL).
        case invalidRequest
        /// The server's response could not be read as HTTP.
        case badResponse
        /// Any other transport error.
        case other

        /// A sentence that says what the family means.
        public var explanation: String {
            switch self {
            case .timeout: "No response arrived within the request's timeout."
            case .offline: "The device is offline or not allowed to use the network."
            case .dns: "The server's host name could not be resolved."
            case .tls: "The secure connection could not be established (TLS handshake or certificate)."
            case .connectionLost: "The connection was lost while the request was in flight."
            case .cannotConnect: "Nothing accepted the connection: the server is down or unreachable."
            case .invalidRequest: "The request could not be sent as built (bad or unsupported URL)."
            case .badResponse: "The server's response could not be read as HTTP."
            case .other: "The request failed below HTTP."
            }
        }
    }

    /// The family of the failure.
    public let family: Family
    /// The `URLError` code, or `0` for errors that were not a `URLError`.
    public let code: Int
    /// What happened, in a sentence that is the same on every platform.
    public let message: String

    /// Creates a transport failure.
    public init(family: Family, code: Int, message: String) {
        self.family = family
        self.code = code
        self.message = message
    }

    /// Classifies a `URLError` into its family.
    public init(_ error: URLError) {
        let family = Self.family(of: error.code)
        self.init(family: family, code: error.code.rawValue, message: family.explanation)
    }

    public var description: String { "\(family.rawValue) (URLError \(code)): \(message)" }

    private static func family(of code: URLError.Code) -> Family {
        switch code {
        case .timedOut:
            .timeout
        case .notConnectedToInternet, .dataNotAllowed, .internationalRoamingOff, .callIsActive:
            .offline
        case .cannotFindHost, .dnsLookupFailed:
            .dns
        case .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted,
            .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
            .clientCertificateRequired, .appTransportSecurityRequiresSecureConnection:
            .tls
        case .networkConnectionLost:
            .connectionLost
        case .cannotConnectToHost:
            .cannotConnect
        case .badURL, .unsupportedURL:
            .invalidRequest
        case .badServerResponse, .cannotParseResponse, .cannotDecodeRawData, .cannotDecodeContentData:
            .badResponse
        default:
            .other
        }
    }
}
