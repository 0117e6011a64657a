import FaultlineLogReading
import FaultlineReporting

/// One event as `faultline tail` prints it: a line in ``TailColumns``, or a JSON object per line with `--json` (every field
/// present, `null` when the event did not say; `status` a number).
public struct EventLine: Hashable, Sendable, Encodable {
    public let eventID: String
    public let timestamp: String
    public let kind: String
    public let status: String?
    public let serverCode: String?
    public let route: String?
    public let user: String?
    public let release: String?
    public let title: String

    enum CodingKeys: String, CodingKey {
        case timestamp, kind, status, route, user, release, title
        case eventID = "event_id"
        case serverCode = "server_code"
    }

    public init(_ record: EventRecord) {
        eventID = record.eventID
        timestamp = RFC3339.string(seconds: record.timestamp, precision: .seconds)
        kind = record.kind
        status = record.tags["http.status_code"]
        serverCode = record.tags["server.code"]
        route = record.tags["http.route"]
        user = record.user
        release = record.release
        title = record.title
    }

    public func encode(to encoder: any Encoder) throws {
        try JSONSchemaVersion.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(eventID, forKey: .eventID)
        try container.encode(timestamp, forKey: .timestamp)
        try container.encode(kind, forKey: .kind)
        try container.encode(status.flatMap { Int($0) }, forKey: .status)
        try container.encode(serverCode, forKey: .serverCode)
        try container.encode(route, forKey: .route)
        try container.encode(user, forKey: .user)
        try container.encode(release, forKey: .release)
        try container.encode(title, forKey: .title)
    }
}
