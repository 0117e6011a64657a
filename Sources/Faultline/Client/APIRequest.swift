import Foundation

/// A request, typed by the response it decodes into.
///
/// The route is a template (`/users/{id}`) filled from ``pathParameters``, so failures and reports group by the
/// template, never by the raw URL.
///
/// ```swift
/// let request = APIRequest<Envelope<User>>(.get, "/users/{id}", pathParameters: ["id": "42"])
/// ```
public struct APIRequest<Response: Decodable & Sendable>: Sendable {
    /// The HTTP method.
    public var method: HTTPMethod
    /// The route template relative to the client's base URL, such as `/users/{id}`.
    public var route: String
    /// Values for the `{name}` placeholders of ``route``; they are percent-encoded as path segments.
    public var pathParameters: [String: String]
    /// Query items appended to the URL.
    public var query: [URLQueryItem]
    /// Header fields, on top of the client's ``APIClient/Configuration/headers``.
    public var headers: [String: String]
    /// A body to send as JSON, encoded with the client's encoder.
    public var body: (any Encodable & Sendable)?
    /// The time to wait for the response; `nil` uses the client's ``APIClient/Configuration/timeout``.
    public var timeout: Duration?
    /// Whether the request may be retried automatically; by default only idempotent methods may.
    public var allowsRetry: Bool

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - method: The HTTP method, `GET` by default.
    ///   - route: The route template, such as `/users/{id}`.
    ///   - pathParameters: Values for the template's placeholders.
    ///   - query: Query items.
    ///   - headers: Extra header fields.
    ///   - body: A body to send as JSON.
    ///   - timeout: The time to wait for the response.
    ///   - allowsRetry: Whether automatic retries are allowed; `nil` (the default) allows them for idempotent methods.
    public init(
        _ method: HTTPMethod = .get, _ route: String, pathParameters: [String: String] = [:],
        query: [URLQueryItem] = [], headers: [String: String] = [:], body: (any Encodable & Sendable)? = nil,
        timeout: Duration? = nil, allowsRetry: Bool? = nil
    ) {
        self.method = method
        self.route = route
        self.pathParameters = pathParameters
        self.query = query
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.allowsRetry = allowsRetry ?? method.isIdempotent
    }

    /// The URL of this request relative to `baseURL`, or `nil` when a placeholder has no value.
    ///
    /// The route's literal parts are percent-encoded as a path and its values as path segments, so the result is
    /// always a valid URL; it is built by concatenation when it can be (URLComponents costs several times more).
    func url(relativeTo baseURL: URL) -> URL? {
        var path = ""
        var remainder = route[...]
        while let open = remainder.firstIndex(of: "{") {
            guard let close = remainder[open...].firstIndex(of: "}"),
                let value = pathParameters[String(remainder[remainder.index(after: open)..<close])],
                let literal = remainder[..<open].percentEncoded(allowing: .urlPathAllowed),
                let encoded = value.percentEncoded(allowing: .pathSegmentAllowed)
            else { return nil }
            path += literal + encoded
            remainder = remainder[remainder.index(after: close)...]
        }
        guard let literal = remainder.percentEncoded(allowing: .urlPathAllowed) else { return nil }
        path += literal
        if !path.hasPrefix("/") { path = "/" + path }
        var base = baseURL.absoluteString
        if base.hasSuffix("/") { base.removeLast() }
        if query.isEmpty, baseURL.query == nil, baseURL.fragment == nil, let url = URL(string: base + path) {
            return url
        }
        guard var components = URLComponents(string: base) else { return nil }
        components.percentEncodedPath += path
        if !query.isEmpty {
            components.queryItems = (components.queryItems ?? []) + query
        }
        return components.url
    }
}

extension StringProtocol {
    /// The text percent-encoded for `allowed`; plain ASCII letters, digits, `-._~` and `/` (when allowed) are
    /// returned as they are without asking Foundation, the common case on the success path.
    fileprivate func percentEncoded(allowing allowed: CharacterSet) -> String? {
        let slashAllowed = allowed.contains("/")
        let isPlain = utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                true
            case UInt8(ascii: "/"):
                slashAllowed
            default:
                false
            }
        }
        return isPlain ? String(self) : addingPercentEncoding(withAllowedCharacters: allowed)
    }
}

extension CharacterSet {
    /// Characters allowed unescaped in one path segment: the path set without `/`.
    fileprivate static let pathSegmentAllowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))
}
