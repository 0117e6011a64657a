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
    }

    /// The family of the failure.
    public let family: Family
    /// The `URLError` code, or `0` for errors that were not a `URLError`.
    public let code: Int
    /// What the underlying error said.
    public let message: String

    /// Creates a transport failure.
    public init(family: Family, code: Int, message: String) {
        self.family = family
        self.code = code
        self.message = message
    }

    /// Classifies a `URLError` into its family.
    public init(_ error: URLError) {
        self.init(family: Self.family(of: error.code), code: error.code.rawValue, message: error.localizedDescription)
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
