/// One event as `faultline tail` prints it: a line of text, or a JSON object per line with `--json`.
public struct EventLine: Hashable, Sendable, Codable {
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
        timestamp = UTCTime.string(record.timestamp)
        kind = record.tags["error.kind"] ?? "other"
        status = record.tags["http.status_code"]
        serverCode = record.tags["server.code"]
        route = record.tags["http.route"]
        user = record.user
        release = record.release
        title = record.title
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(eventID, forKey: .eventID)
        try container.encode(timestamp, forKey: .timestamp)
        try container.encode(kind, forKey: .kind)
        try container.encode(status, forKey: .status)
        try container.encode(serverCode, forKey: .serverCode)
        try container.encode(route, forKey: .route)
        try container.encode(user, forKey: .user)
        try container.encode(release, forKey: .release)
        try container.encode(title, forKey: .title)
    }

    /// `time  kind  status  code  route  user  title`, `-` for what is missing.
    public func text(style: TextStyle) -> String {
        let fields = [status, serverCode, route, user].map { $0 ?? "-" }.joined(separator: "  ")
        return "\(style.dim(timestamp))  \(kind)  \(fields)  \(title)"
    }
}
