import Foundation

extension EventRecord {
    /// Why a line is not an event.
    public enum LineFailure: Error, Hashable, Sendable {
        /// The bytes are not UTF-8.
        case notUTF8
        /// The line is not one JSON object.
        case notJSON
        /// It is JSON, but without a string `event_id` and an RFC 3339 (or numeric) `timestamp`.
        case notAnEvent
    }

    /// Reads an event from one line of the log: the fields triage needs, skipping everything else (breadcrumbs,
    /// contexts, the request) without decoding it. Unknown fields are ignored.
    public init(line: UnsafeBufferPointer<UInt8>) throws(LineFailure) {
        guard UTF8Validation.isValid(line) else { throw .notUTF8 }
        var scanner = JSONScanner(line)
        var eventID: String?
        var timestamp: Double?
        var fields = EventRecord(eventID: "", timestamp: 0)
        let isObject = scanner.object { key, scanner in
            switch Key(key) {
            case .eventID:
                eventID = scanner.string()
                return eventID != nil
            case .timestamp:
                if let text = scanner.string() {
                    timestamp = RFC3339Time.seconds(text)
                } else {
                    timestamp = scanner.number()
                }
                return timestamp != nil
            case .level: return scanner.optionalString(into: &fields.level)
            case .release: return scanner.optionalString(into: &fields.release)
            case .environment: return scanner.optionalString(into: &fields.environment)
            case .message: return scanner.optionalString(into: &fields.message)
            case .fingerprint:
                return scanner.array { scanner in
                    guard let part = scanner.scalarText() else { return false }
                    fields.fingerprint.append(part)
                    return true
                }
            case .tags:
                return scanner.object { key, scanner in
                    guard let value = scanner.scalarText() else { return scanner.skipValue() }
                    fields.tags[String(decoding: key, as: UTF8.self)] = value
                    return true
                }
            case .user: return fields.readUser(&scanner)
            case .exception: return fields.readException(&scanner)
            case nil: return scanner.skipValue()
            }
        }
        guard isObject, scanner.isAtEnd() else { throw .notJSON }
        guard let eventID, let timestamp else { throw .notAnEvent }
        fields.eventID = eventID
        fields.timestamp = timestamp
        self = fields
    }

    /// `{"id": …, "email": …, "username": …, "segment": …}`: the id, else the email, else the username.
    private mutating func readUser(_ scanner: inout JSONScanner) -> Bool {
        var id: String?
        var email: String?
        var username: String?
        var segment: String?
        let read = scanner.object { key, scanner in
            switch String(decoding: key, as: UTF8.self) {
            case "id":
                guard let value = scanner.scalarText() else { return scanner.skipValue() }
                id = value
                return true
            case "email": return scanner.optionalString(into: &email)
            case "username": return scanner.optionalString(into: &username)
            case "segment": return scanner.optionalString(into: &segment)
            default: return scanner.skipValue()
            }
        }
        user = id ?? email ?? username
        userSegment = segment
        return read
    }

    /// `{"values": [{"type": …, "value": …}, …]}`: the last exception, the one that was raised.
    private mutating func readException(_ scanner: inout JSONScanner) -> Bool {
        scanner.object { key, scanner in
            guard String(decoding: key, as: UTF8.self) == "values" else { return scanner.skipValue() }
            return scanner.array { scanner in
                scanner.object { key, scanner in
                    switch String(decoding: key, as: UTF8.self) {
                    case "type": return scanner.optionalString(into: &exceptionType)
                    case "value": return scanner.optionalString(into: &exceptionValue)
                    default: return scanner.skipValue()
                    }
                }
            }
        }
    }

    /// The top-level keys triage reads, matched on raw bytes so that the others cost no allocation.
    private enum Key {
        case eventID, timestamp, level, release, environment, message, fingerprint, tags, user, exception

        init?(_ raw: UnsafeBufferPointer<UInt8>) {
            guard let base = raw.baseAddress else { return nil }
            for (name, key) in Self.names where name.utf8CodeUnitCount == raw.count {
                if memcmp(name.utf8Start, base, raw.count) == 0 {
                    self = key
                    return
                }
            }
            return nil
        }

        private static let names: [(StaticString, Key)] = [
            ("event_id", .eventID), ("timestamp", .timestamp), ("level", .level), ("release", .release),
            ("environment", .environment), ("message", .message), ("fingerprint", .fingerprint), ("tags", .tags),
            ("user", .user), ("exception", .exception),
        ]
    }
}
