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
