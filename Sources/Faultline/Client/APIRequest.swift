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
        // Braces are ASCII, so searching the UTF-8 view finds them without breaking the text into characters.
        while let open = remainder.utf8.firstIndex(of: UInt8(ascii: "{")) {
            guard let close = remainder.utf8[open...].firstIndex(of: UInt8(ascii: "}")),
                let value = pathParameters[String(remainder[remainder.utf8.index(after: open)..<close])],
                let literal = remainder[..<open].percentEncoded(as: .path),
                let encoded = value.percentEncoded(as: .pathSegment)
            else { return nil }
            path += literal + encoded
            remainder = remainder[remainder.utf8.index(after: close)...]
        }
        guard let literal = remainder.percentEncoded(as: .path) else { return nil }
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

/// Which part of a URL path a text is encoded as.
private enum PathEncoding {
    /// Route literals: `/` stays as it is.
    case path
    /// A placeholder's value: `/` is encoded too.
    case pathSegment

    /// The characters Foundation leaves unescaped in this part. Made only for texts that need escaping: building a
    /// `CharacterSet` costs more than the rest of the URL.
    var allowedCharacters: CharacterSet {
        switch self {
        case .path: .urlPathAllowed
        case .pathSegment: CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))
        }
    }
}

extension StringProtocol {
    /// The text percent-encoded as `part`; plain ASCII letters, digits, `-._~` and `/` (in a path) are returned as
    /// they are without asking Foundation, the common case on the success path.
    fileprivate func percentEncoded(as part: PathEncoding) -> String? {
        let slashAllowed = part == .path
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
        return isPlain ? String(self) : addingPercentEncoding(withAllowedCharacters: part.allowedCharacters)
    }
}
