/// An HTTP request method.
///
/// Idempotent methods (`GET`, `HEAD`, `PUT`, `DELETE`, `OPTIONS`, `TRACE`) may be retried automatically;
/// see ``RetryPolicy``.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The method name as sent on the wire, for example `GET`.
    public let rawValue: String

    /// Creates a method from its name; the name is upper-cased.
    public init(rawValue: String) {
        self.rawValue = rawValue.uppercased()
    }

    /// Creates a method from a string literal such as `"PATCH"`.
    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    public static let get: HTTPMethod = "GET"
    public static let head: HTTPMethod = "HEAD"
    public static let post: HTTPMethod = "POST"
    public static let put: HTTPMethod = "PUT"
    public static let patch: HTTPMethod = "PATCH"
    public static let delete: HTTPMethod = "DELETE"
    public static let options: HTTPMethod = "OPTIONS"

    /// Whether sending the request twice has the same effect as sending it once (RFC 9110 §9.2.2).
    public var isIdempotent: Bool {
        ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"].contains(rawValue)
    }

    public var description: String { rawValue }
}
