import Foundation

/// How a server describes its errors: a value that reads a ``ServerError`` from a response body.
///
/// Servers' error shapes differ only in data, so a contract is a value, not a protocol:
/// - ``envelope(successKey:errorKey:codeKey:messageKey:)``: `{"success": false, "data": null, "error": {"code": 40101, "message": "…"}}`,
///   including `success: false` inside a 200;
/// - ``flatCode(codeKey:messageKey:)``: `{"errorCode": "E05"}`;
/// - ``problemDetails``: RFC 9457 `application/problem+json`;
/// - ``init(errorBody:failureInSuccessfulBody:)``: your own closures.
public struct ErrorContract: Sendable {
    /// Reads a server error from a status code and a body; returns `nil` when the body does not match.
    public typealias Reader = @Sendable (_ statusCode: Int, _ body: Data) -> ServerError?

    /// Reads the error from the body of a response whose status is outside 200–299.
    public let errorBody: Reader
    /// Reads a failure that the server reports inside a 2xx body, for contracts that have one; `nil` otherwise.
    public let failureInSuccessfulBody: Reader?

    /// Creates a contract from closures.
    ///
    /// - Parameters:
    ///   - errorBody: Reads the error from a non-2xx response body.
    ///   - failureInSuccessfulBody: Reads a failure from a 2xx body; returning a value turns the response into a
    ///     ``ServerFailure``. `nil` (the default) means a 2xx is always a success.
    public init(errorBody: @escaping Reader, failureInSuccessfulBody: Reader? = nil) {
        self.errorBody = errorBody
        self.failureInSuccessfulBody = failureInSuccessfulBody
    }

    /// The first contract whose reader matches, in order.
    public static func firstMatch(_ contracts: [ErrorContract]) -> ErrorContract {
        let errorReaders: [Reader] = contracts.map { $0.errorBody }
        let successReaders: [Reader] = contracts.compactMap { $0.failureInSuccessfulBody }
        let errorBody: Reader = { status, body in firstResult(of: errorReaders, status, body) }
        guard !successReaders.isEmpty else { return ErrorContract(errorBody: errorBody) }
        let successBody: Reader = { status, body in firstResult(of: successReaders, status, body) }
        return ErrorContract(errorBody: errorBody, failureInSuccessfulBody: successBody)
    }

    private static func firstResult(of readers: [Reader], _ status: Int, _ body: Data) -> ServerError? {
        for reader in readers {
            if let error = reader(status, body) { return error }
        }
        return nil
    }

    /// The default: an envelope's `error` object, a flat `errorCode`, or RFC 9457 problem details, whichever matches
    /// first. It never inspects 2xx bodies; configure ``envelope(successKey:errorKey:codeKey:messageKey:)`` for that.
    public static let automatic = firstMatch([
        envelope(successKey: nil), flatCode(), flatCode(codeKey: "code"), problemDetails,
    ])
}
