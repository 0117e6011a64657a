import Foundation

/// Something that happened before an event: a request, a token refresh, a log line. Sentry's `breadcrumbs` entries.
public struct Breadcrumb: Hashable, Sendable {
    /// The breadcrumb's severity: Sentry's levels, which are an event's.
    public typealias Level = SentryEvent.Level

    /// When it happened, as an RFC 3339 UTC timestamp with milliseconds.
    public var timestamp: String
    /// The kind of breadcrumb: `default`, `http`, `navigation`, …
    public var type: String
    /// A dotted category such as `http` or `auth.refresh`.
    public var category: String?
    /// The severity.
    public var level: Level
    /// What happened, in words.
    public var message: String?
    /// Details; for `http` breadcrumbs `url`, `method`, `status_code`.
    public var data: [String: JSONValue]?

    /// Creates a breadcrumb, stamped with `date` (now by default).
    public init(
        type: String = "default", category: String? = nil, level: Level = .info, message: String? = nil,
        data: [String: JSONValue]? = nil, date: Date = Date()
    ) {
        self.timestamp = RFC3339.string(from: date)
        self.type = type
        self.category = category
        self.level = level
        self.message = message
        self.data = data
    }
}
