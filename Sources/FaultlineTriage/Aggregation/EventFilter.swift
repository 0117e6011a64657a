/// Which events a triage command counts: a time window and tag filters. Every count a command prints respects it.
public struct EventFilter: Hashable, Sendable {
    /// Seconds since 1970; events before `since` or at or after `until` are left out.
    public var since: Double?
    public var until: Double?
    /// Accepted values of `error.kind`, `http.route`, `http.status_code`, `server.code`, release, environment and
    /// user; an empty set accepts everything.
    public var kinds: Set<String> = []
    public var routes: Set<String> = []
    public var statuses: Set<String> = []
    public var serverCodes: Set<String> = []
    public var releases: Set<String> = []
    public var environments: Set<String> = []
    public var users: Set<String> = []

    public init() {}

    /// Whether `record` passes every filter.
    public func accepts(_ record: EventRecord) -> Bool {
        if let since, record.timestamp < since { return false }
        if let until, record.timestamp >= until { return false }
        return Self.accepts(kinds, record.tags["error.kind"]) && Self.accepts(routes, record.tags["http.route"])
            && Self.accepts(statuses, record.tags["http.status_code"])
            && Self.accepts(serverCodes, record.tags["server.code"]) && Self.accepts(releases, record.release)
            && Self.accepts(environments, record.environment) && Self.accepts(users, record.user)
    }

    private static func accepts(_ values: Set<String>, _ value: String?) -> Bool {
        values.isEmpty || value.map(values.contains) == true
    }
}
