import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Classifies what a transfer produced: a response (with the error contract and the code catalogue) or a transport
/// error. ``APIClient`` uses it for every response; apps on another stack (Alamofire, Moya, their own) use it to get
/// the same ``RequestFailure`` from their responses.
public struct FailureClassifier: Sendable {
    /// How the server describes errors.
    public let contract: ErrorContract
    /// Categories of business codes.
    public let catalog: ServerCodeCatalog
    /// Error bodies larger than this are previewed, not parsed.
    public let maximumErrorBodySize: Int
    /// The most bytes of an unrecognised body kept in a ``BodyPreview``.
    public let bodyPreviewLimit: Int

    /// Creates a classifier; the defaults match ``APIClient/Configuration``'s.
    public init(
        contract: ErrorContract = .automatic, catalog: ServerCodeCatalog = .empty, maximumErrorBodySize: Int = 1 << 20,
        bodyPreviewLimit: Int = 512
    ) {
        self.contract = contract
        self.catalog = catalog
        self.maximumErrorBodySize = maximumErrorBodySize
        self.bodyPreviewLimit = bodyPreviewLimit
    }

    /// What a transfer's raw parts come to before the body is decoded: the transport error when there was no
    /// response (see ``reason(forTransportError:)``), a `badResponse` ``TransportFailure`` when the response is not
    /// HTTP, the ``ServerFailure`` the response signals (see ``failure(in:body:)``), or else the response, whose body is
    /// the caller's to decode.
    ///
    /// - Parameters:
    ///   - response: The response, if one arrived.
    ///   - body: The response body.
    ///   - transportError: The error that ended the request without a response; `URLError(.unknown)` when there is
    ///     neither a response nor an error.
    public func outcome(response: URLResponse?, body: Data, transportError: (any Error)?) -> Outcome {
        guard let response else {
            return .failure(Self.reason(forTransportError: transportError ?? URLError(.unknown)))
        }
        guard let response = response as? HTTPURLResponse else {
            let failure = TransportFailure(
                family: .badResponse, code: URLError.badServerResponse.rawValue,
                message: "The response from \(response.url?.absoluteString ?? "the server") is not an HTTP response.")
            return .failure(.transport(failure))
        }
        if let failure = failure(in: response, body: body) { return .failure(.server(failure)) }
        return .response(response)
    }

    /// The reason a request failed, from its raw parts, exactly as ``APIClient`` classifies its own: a transport
    /// error, a response that fails by its status or by an error inside a successful body, or a successful body that
    /// did not decode. `nil` when the request succeeded.
    ///
    /// This is the entry for apps on another HTTP stack (Alamofire, Moya, their own).
    ///
    /// - Parameters:
    ///   - response: The response, if one arrived.
    ///   - body: The response body; empty when `nil`.
    ///   - transportError: The error that ended the request without a response.
    ///   - decodingError: The error thrown while decoding a successful body into `decodedType`.
    ///   - decodedType: The type the body was decoded into, named in the ``DecodingFailure``; `Any` by default.
    public func reason(
        response: URLResponse?, body: Data?, transportError: (any Error)? = nil, decodingError: (any Error)? = nil,
        decodedType: Any.Type = Any.self
    ) -> RequestFailure.Reason? {
        switch outcome(response: response, body: body ?? Data(), transportError: transportError) {
        case .failure(let reason): reason
        case .response: decodingError.map { .decoding(DecodingFailure($0, decoding: decodedType)) }
        }
    }

    /// The failure a response signals, or `nil` when it is a success.
    public func failure(in response: HTTPURLResponse, body: Data) -> ServerFailure? {
        let status = response.statusCode
        let serverError: ServerError?
        if (200..<300).contains(status) {
            guard let reader = contract.failureInSuccessfulBody, let error = reader(status, body) else { return nil }
            serverError = error
        } else {
            serverError = body.count <= maximumErrorBodySize ? contract.errorBody(status, body) : nil
        }
        let preview =
            serverError == nil && !body.isEmpty
            ? BodyPreview(
                body: body, contentType: response.value(forHTTPHeaderField: "Content-Type"), limit: bodyPreviewLimit)
            : nil
        return ServerFailure(
            statusCode: status, serverError: serverError, category: serverError?.code.flatMap(catalog.category(for:)),
            bodyPreview: preview, bodySize: body.count, response: response)
    }

    /// The reason a request that got no response failed: cancellation (`CancellationError` or
    /// `URLError.cancelled`), else a ``TransportFailure``.
    public static func reason(forTransportError error: any Error) -> RequestFailure.Reason {
        switch error {
        case is CancellationError:
            .cancelled
        case let error as URLError where error.code == .cancelled:
            .cancelled
        case let error as URLError:
            .transport(TransportFailure(error))
        default:
            .transport(TransportFailure(family: .other, code: 0, message: String(describing: error)))
        }
    }
}

extension FailureClassifier {
    /// What a transfer came to before its body is decoded.
    public enum Outcome: Sendable {
        /// An HTTP response that signals no failure; its body is the caller's to decode.
        case response(HTTPURLResponse)
        /// A failure: no response, a response that is not HTTP, or a response that fails by its status or body.
        case failure(RequestFailure.Reason)
    }
}
