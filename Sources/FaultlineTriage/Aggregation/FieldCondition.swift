import FaultlineLogReading
import FaultlineRecords

/// One `--where` condition: a field of an event, `=` or `!=`, and a value, which may hold `*` for any text
/// (`release=app@2.*`, `device.model=iPhone*`, `user.email!=*@example.com`).
///
/// The field is `release`, `environment`, `level`, `kind`, `title`, `message`, `user.id`, `user.email`,
/// `user.username` or `user.segment`; a path into the event's JSON (`contexts.os.name`, `request.method`,
/// `user.ip_address`, `sdk.name`, `extra.…`, its members separated by dots); or else a tag, by its name
/// (`device.model`, `feature_flag`), also written `tags.NAME`. An event without the field has no value: `=` fails and
/// `!=` holds, so `KEY=*` asks that the event has the field and `KEY!=*` that it has not.
package struct FieldCondition: Hashable, Sendable {
    /// What the condition reads.
    enum Field: Hashable, Sendable {
        case release, environment, level, kind, title, message, userID, userEmail, userName, userSegment
        case tag(String)
        case path([String])
    }

    let field: Field
    /// The value's parts between its `*`s: one part when it has none.
    let parts: [String]
    let isNegated: Bool

    /// Why a condition cannot be read.
    package struct Mistake: Error, Hashable, Sendable, CustomStringConvertible {
        package let description: String
    }

    /// Reads `KEY=VALUE` or `KEY!=VALUE`, split at the first `=` byte (not character: a combining mark after it
    /// would hide it in a `Character`).
    package init(_ text: String) throws(Mistake) {
        let bytes = Array(text.utf8)
        guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else {
            throw Mistake(description: "'\(text)' is not a condition: write KEY=VALUE or KEY!=VALUE.")
        }
        isNegated = equals > 0 && bytes[equals - 1] == UInt8(ascii: "!")
        let key = String(decoding: bytes[..<(isNegated ? equals - 1 : equals)], as: UTF8.self)
        guard !key.isEmpty else { throw Mistake(description: "'\(text)' names no field before its '='.") }
        field = Self.field(named: key)
        parts = bytes[(equals + 1)...].split(separator: UInt8(ascii: "*"), omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
    }

    /// Whether a condition needs the event's line, not only what the scan read.
    var readsLine: Bool {
        if case .path = field { return true }
        return false
    }

    /// Whether `record` meets the condition; for a path, `line` is read.
    func isMet(by record: EventRecord, line: UnsafeBufferPointer<UInt8>?) -> Bool {
        let value: String? =
            switch field {
            case .release: record.release
            case .environment: record.environment
            case .level: record.level
            case .kind: record.kind
            case .title: record.title
            case .message: record.message
            case .userID: record.user
            case .userEmail: record.userEmail
            case .userName: record.userName
            case .userSegment: record.userSegment
            case .tag(let name): record.tags[name]
            case .path(let path): line.flatMap { EventRecord.value(at: path, in: $0) }
            }
        guard let value else { return isNegated }
        return matches(value) != isNegated
    }

    /// Whether `value` matches the pattern, byte for byte: its parts in order, the first at its start and the last at
    /// its end.
    private func matches(_ value: String) -> Bool {
        let bytes = value.utf8
        guard let first = parts.first?.utf8, let last = parts.last?.utf8 else { return false }
        guard parts.count > 1 else { return bytes.elementsEqual(first) }
        guard bytes.count >= first.count + last.count, bytes.starts(with: first),
            bytes.reversed().starts(with: last.reversed())
        else { return false }
        var rest = bytes.dropFirst(first.count).dropLast(last.count)
        for part in parts.dropFirst().dropLast() where !part.isEmpty {
            guard let found = rest.firstRange(of: part.utf8) else { return false }
            rest = rest[found.upperBound...]
        }
        return true
    }

    private static func field(named key: String) -> Field {
        switch key {
        case "release": return .release
        case "environment": return .environment
        case "level": return .level
        case "kind", "error.kind": return .kind
        case "title": return .title
        case "message": return .message
        case "user.id", "user": return .userID
        case "user.email": return .userEmail
        case "user.username": return .userName
        case "user.segment": return .userSegment
        default: break
        }
        // Read by bytes, as the value is: a combining mark after `.` would hide it in a `Character`.
        let bytes = Array(key.utf8)
        if bytes.starts(with: "tags.".utf8) { return .tag(String(decoding: bytes.dropFirst(5), as: UTF8.self)) }
        let path = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        if Self.pathRoots.contains(path[0]) { return .path(path) }
        return .tag(key)
    }

    /// The members of an event whose fields are read by path; any other name is a tag's.
    private static let pathRoots: Set<String> = [
        "contexts", "request", "user", "sdk", "extra", "exception", "logentry", "transaction", "platform",
        "server_name", "dist", "logger",
    ]
}
