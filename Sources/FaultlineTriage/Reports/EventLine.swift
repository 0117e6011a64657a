import FaultlineLogReading
import FaultlineRecords

/// One event as `faultline tail` prints it: a line in ``TailColumns``, or a JSON object per line with `--json` (every field
/// present, `null` when the event did not say; `status` a number).
package struct EventLine: Hashable, Sendable, Encodable {
    package let eventID: String
    package let timestamp: String
    package let kind: String
    package let status: String?
    package let serverCode: String?
    package let route: String?
    package let user: String?
    package let release: String?
    package let title: String

    enum CodingKeys: String, CodingKey {
        case timestamp, kind, status, route, user, release, title
        case eventID = "event_id"
        case serverCode = "server_code"
    }

    package init(_ record: EventRecord) {
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

    package func encode(to encoder: any Encoder) throws {
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
