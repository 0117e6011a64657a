import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A successful response: the decoded value, with the raw body and HTTP response it came from.
public struct APIResponse<Value: Sendable>: Sendable {
    /// The decoded body.
    public let value: Value
    /// The raw body.
    public let data: Data
    /// The HTTP response.
    public let response: HTTPURLResponse
    /// The request's context for the attempt that succeeded.
    public let context: RequestContext

    /// Creates a response.
    public init(value: Value, data: Data, response: HTTPURLResponse, context: RequestContext) {
        self.value = value
        self.data = data
        self.response = response
        self.context = context
    }

    /// The HTTP status code.
    public var statusCode: Int { response.statusCode }
}
