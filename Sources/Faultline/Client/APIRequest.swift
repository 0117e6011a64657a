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
    func url(relativeTo baseURL: URL) -> URL? {
        var path = ""
        var remainder = route[...]
        while let open = remainder.firstIndex(of: "{") {
            guard let close = remainder[open...].firstIndex(of: "}") else { return nil }
            let name = String(remainder[remainder.index(after: open)..<close])
            guard let value = pathParameters[name],
                let encoded = value.addingPercentEncoding(withAllowedCharacters: .pathSegmentAllowed)
            else { return nil }
            path += remainder[..<open] + encoded
            remainder = remainder[remainder.index(after: close)...]
        }
        path += remainder
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true) else { return nil }
        let basePath =
            components.percentEncodedPath.hasSuffix("/")
            ? String(components.percentEncodedPath.dropLast()) : components.percentEncodedPath
        components.percentEncodedPath = basePath + (path.hasPrefix("/") ? path : "/" + path)
        if !query.isEmpty {
            components.queryItems = (components.queryItems ?? []) + query
        }
        return components.url
    }
}

extension CharacterSet {
    /// Characters allowed unescaped in one path segment: the path set without `/`.
    fileprivate static let pathSegmentAllowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))
}
