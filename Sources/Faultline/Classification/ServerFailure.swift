import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A response that reached the client but signals failure: a status outside 200–299, or a failure the error contract
/// found inside a 2xx body (`{"success": false, …}` on a 200).
public struct ServerFailure: Sendable, CustomStringConvertible {
    /// The HTTP status code.
    public let statusCode: Int
    /// The error the server described, read by the error contract; `nil` when the body did not match it.
    public let serverError: ServerError?
    /// The category of the business code in the client's ``ServerCodeCatalog``, if it has one.
    public let category: ServerCodeCatalog.Category?
    /// The start of the body when it did not match the error contract (an HTML page from a proxy, say).
    public let bodyPreview: BodyPreview?
    /// The size of the response body in bytes.
    public let bodySize: Int
    /// The HTTP response, for its headers (`Retry-After`, `WWW-Authenticate`, …).
    public let response: HTTPURLResponse

    /// Creates a server failure.
    public init(
        statusCode: Int, serverError: ServerError?, category: ServerCodeCatalog.Category?, bodyPreview: BodyPreview?,
        bodySize: Int, response: HTTPURLResponse
    ) {
        self.statusCode = statusCode
        self.serverError = serverError
        self.category = category
        self.bodyPreview = bodyPreview
        self.bodySize = bodySize
        self.response = response
    }

    /// The business code, if the server sent one.
    public var code: ServerCode? { serverError?.code }
    /// The server's message, if it sent one.
    public var message: String? { serverError?.message }

    /// The status, then what the server said: `HTTP 400 code 40013 (validation) "Invalid date"`; for a body the error
    /// contract did not read, its preview, or an HTML page's title: `HTTP 502 page "502 Bad Gateway" (text/html, 150
    /// bytes)`.
    public var description: String {
        var parts = ["HTTP \(statusCode)"]
        if let code { parts.append("code \(code)") }
        if let category { parts.append("(\(category))") }
        if let message { parts.append("\"\(message)\"") }
        if let title = bodyPreview?.pageTitle {
            let type = bodyPreview?.contentType.map { "\($0), " } ?? ""
            parts.append("page \"\(title)\" (\(type)\(bodySize) bytes)")
        } else if let bodyPreview {
            parts.append("body: \(bodyPreview)")
        }
        return parts.joined(separator: " ")
    }
}
