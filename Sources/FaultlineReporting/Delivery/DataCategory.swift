/// The data categories of Sentry's rate limits and client reports for what Faultline sends (Sentry developer docs,
/// "Rate Limiting / Definitions"): a category is not an item type.
public enum DataCategory: String, Hashable, Sendable, Codable, CaseIterable {
    /// Error events: the `event` item.
    case error
    /// Client reports: the `client_report` item; limited only by a limit on all categories.
    case `internal`

    /// The category of an envelope item of type `itemType`; `nil` for a type Faultline does not send.
    public init?(itemType: String) {
        switch itemType {
        case "event": self = .error
        case "client_report": self = .internal
        default: return nil
        }
    }
}
