import FaultlineRecords
import Foundation

/// The data categories of Sentry's rate limits and client reports (Sentry developer docs, "Rate Limiting /
/// Definitions"): a category is not an item type. Faultline's own envelopes carry `error` and `internal`; the others
/// are those of the items SDKs send, which `faultline serve --forward` passes on.
public enum DataCategory: String, Hashable, Sendable, Codable, CaseIterable {
    /// Events without a more specific category: the legacy `user_report` item.
    case `default`
    /// Error events: the `event` item.
    case error
    /// Performance transactions: the `transaction` item.
    case transaction
    /// Security reports (CSP and the like): the `raw_security` item.
    case security
    /// Attachments: the `attachment` item.
    case attachment
    /// Release health sessions: the `session` and `sessions` items.
    case session
    /// Profiles: the `profile` and `profile_chunk` items.
    case profile
    /// Session replays: the `replay_event`, `replay_recording` and `replay_video` items.
    case replay
    /// Cron monitor check-ins: the `check_in` item.
    case monitor
    /// User feedback: the `feedback` item.
    case feedback
    /// Standalone spans: the `span` item.
    case span
    /// Metric buckets: the `statsd` and `metric_buckets` items.
    case metricBucket = "metric_bucket"
    /// Logs: the `log` item.
    case logItem = "log_item"
    /// Client reports (the `client_report` item) and Faultline's request outcomes (`faultline.request_outcomes`):
    /// limited only by a limit on all categories, and never counted in a client report.
    case `internal`

    /// The category of an envelope item of type `itemType`; `nil` for a type Sentry's rate limits do not name.
    package init?(itemType: String) {
        switch itemType {
        case "event": self = .error
        case "client_report", RequestOutcomes.type: self = .internal
        case "transaction": self = .transaction
        case "raw_security": self = .security
        case "attachment": self = .attachment
        case "session", "sessions": self = .session
        case "profile", "profile_chunk": self = .profile
        case "replay_event", "replay_recording", "replay_video": self = .replay
        case "check_in": self = .monitor
        case "feedback": self = .feedback
        case "span": self = .span
        case "statsd", "metric_buckets": self = .metricBucket
        case "log": self = .logItem
        case "user_report": self = .default
        default: return nil
        }
    }
}

extension DataCategory {
    /// The category `envelope` is rate-limited by: that of its first item Faultline knows; `nil` when it has none.
    init?(rateLimiting envelope: Envelope) {
        guard let category = envelope.items.lazy.compactMap({ DataCategory(itemType: $0.type) }).first else {
            return nil
        }
        self = category
    }

    /// The category the envelope `bytes` is rate-limited by.
    static func rateLimiting(_ bytes: Data) throws -> DataCategory {
        guard let category = DataCategory(rateLimiting: try Envelope(parsing: bytes)) else {
            throw Envelope.ParseError(reason: "it has no item of a data category Faultline knows")
        }
        return category
    }
}
