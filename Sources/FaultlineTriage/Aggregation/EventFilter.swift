import FaultlineLogReading
import FaultlineRecords

/// Which events a triage command counts: a time window and tag filters. Every count a command prints respects it.
package struct EventFilter: Hashable, Sendable {
    /// Seconds since 1970; events before `since` or at or after `until` are left out.
    package var since: Double?
    package var until: Double?
    /// Accepted kinds (``EventRecord/kind``), values of `http.route`, `http.status_code` (a status such as `503`, or
    /// a class such as `5xx`), `server.code`, release, environment and user (by id, email or username); an empty set accepts everything.
    package var kinds: Set<String> = []
    package var routes: Set<String> = []
    package var statuses: Set<String> = []
    package var serverCodes: Set<String> = []
    package var releases: Set<String> = []
    package var environments: Set<String> = []
    package var users: Set<String> = []
    /// Only the events of one issue: those grouped by this fingerprint (``EventRecord/grouping``); `nil` accepts
    /// every issue.
    package var grouping: [String]?
    /// `--where` conditions, all of which an event must meet.
    package var conditions: [FieldCondition] = []
    /// `--grep`: text an event's message, title or exception must contain.
    package var search: TextSearch?

    package init() {}

    /// Whether `record` passes every filter.
    package func accepts(_ record: EventRecord) -> Bool {
        if let since, record.timestamp < since { return false }
        if let until, record.timestamp >= until { return false }
        return acceptsIgnoringTime(record)
    }

    /// Whether `record` passes every filter but the time window.
    package func acceptsIgnoringTime(_ record: EventRecord) -> Bool {
        Self.accepts(kinds, record.kind) && Self.accepts(routes, record.tags["http.route"])
            && acceptsStatus(record.tags["http.status_code"])
            && Self.accepts(serverCodes, record.tags["server.code"]) && Self.accepts(releases, record.release)
            && Self.accepts(environments, record.environment) && acceptsUser(record)
            && (grouping.map { $0 == record.grouping } ?? true)
            && conditions.allSatisfy { $0.readsLine || $0.isMet(by: record, line: nil) }
            && (search?.matches(record) ?? true)
    }

    /// Whether the event on `line` meets the conditions that read the line itself (paths such as `contexts.os.name`),
    /// which ``accepts(_:)`` leaves to this; `true` without such conditions, without reading the line.
    package func acceptsLine(of record: EventRecord, _ line: UnsafeBufferPointer<UInt8>) -> Bool {
        conditions.allSatisfy { !$0.readsLine || $0.isMet(by: record, line: line) }
    }

    /// Whether the event's user is one of ``users`` by any of its identities: id, email or username.
    private func acceptsUser(_ record: EventRecord) -> Bool {
        users.isEmpty || [record.user, record.userEmail, record.userName].contains { $0.map(users.contains) == true }
    }

    /// Whether `text` is a status or a class of them: three digits, or a digit and `xx`.
    package static func isStatusPattern(_ text: String) -> Bool {
        let characters = Array(text.lowercased())
        guard characters.count == 3, let first = characters[0].wholeNumberValue, (1...5).contains(first) else {
            return false
        }
        return characters[1...].allSatisfy { $0.isASCII && $0.isNumber } || characters[1...] == ["x", "x"]
    }

    private func acceptsStatus(_ status: @autoclosure () -> String?) -> Bool {
        guard !statuses.isEmpty else { return true }
        guard let status = status() else { return false }
        return statuses.contains(status) || statuses.contains { $0.lowercased() == "\(status.prefix(1))xx" }
    }

    /// `value` is read only when there is a filter: reading a tag is a lookup, and this runs for every event.
    private static func accepts(_ values: Set<String>, _ value: @autoclosure () -> String?) -> Bool {
        values.isEmpty || value().map(values.contains) == true
    }
}
