import FaultlineRecords
import Foundation

/// Something that happened before an event: a request, a token refresh, a log line. Sentry's `breadcrumbs` entries.
public struct Breadcrumb: Hashable, Sendable, Codable {
    /// The breadcrumb's severity, Sentry's levels.
    public enum Level: String, Hashable, Sendable, Codable {
        case debug, info, warning, error, fatal
    }

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

    enum CodingKeys: String, CodingKey {
        case timestamp, type, category, level, message, data
    }

    /// Reads a breadcrumb as any Sentry SDK sends it: `type` and `level` may be absent (`default`, `info`), and
    /// `timestamp` may be seconds since 1970 instead of RFC 3339.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let seconds = try? container.decode(Double.self, forKey: .timestamp) {
            timestamp = RFC3339.string(from: Date(timeIntervalSince1970: seconds))
        } else {
            timestamp = try container.decode(String.self, forKey: .timestamp)
        }
        type = try container.decodeIfPresent(String.self, forKey: .type) ?? "default"
        category = try container.decodeIfPresent(String.self, forKey: .category)
        level = (try? container.decodeIfPresent(Level.self, forKey: .level)) ?? .info
        message = try container.decodeIfPresent(String.self, forKey: .message)
        data = try container.decodeIfPresent([String: JSONValue].self, forKey: .data)
    }
}
