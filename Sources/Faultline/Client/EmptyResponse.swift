/// The response type of a request whose successful body is ignored (a `204 No Content`, say).
public struct EmptyResponse: Decodable, Hashable, Sendable {
    /// Creates an empty response.
    public init() {}

    /// Decodes nothing: any body, empty or not, is accepted.
    public init(from decoder: any Decoder) throws {}
}
