import Foundation

/// One logged event's line, read by a scan that skips everything triage does not need (breadcrumbs, contexts, the
/// request) without decoding it: the fields triage reads (``record``, whose ``EventRecord/grouping`` is left for the
/// grouping to fill) and where the members Sentry's default grouping reads are (``groupingSources``), read only when
/// an event needs its default grouping.
///
/// Unknown fields are ignored. The `faultline.suppressed` tag is read as ``EventRecord/suppressedEvents``. A field
/// triage reads that has an unexpected type (a numeric release, tags that are a string) is left out and counted in
/// ``EventRecord/ignoredFields``; the forms the Sentry protocol also allows are read: tags as `[key, value]` pairs, a
/// `message` object, an `exception` list.
package struct EventScan: Sendable, Equatable {
    /// The fields read, with an empty ``EventRecord/grouping``.
    package var record: EventRecord
    /// Where the members the default grouping reads are in the event's bytes.
    package var groupingSources: GroupingSources

    /// Where the members Sentry's default grouping reads are in an event's bytes, and the message template it falls
    /// back on.
    package struct GroupingSources: Sendable, Equatable {
        package var exception: Range<Int>?
        package var threads: Range<Int>?
        package var stackTrace: Range<Int>?
        package var platform: Range<Int>?
        /// The `template` interface: where a template rendering failed.
        package var template: Range<Int>?
        /// The message before formatting, when the event sent one (`logentry.message`).
        package var messageTemplate: String?

        /// Sources that locate nothing.
        package init() {}
    }

    private init(record: EventRecord, groupingSources: GroupingSources) {
        self.record = record
        self.groupingSources = groupingSources
    }

    /// Reads the event on one line of the log.
    package init(line: UnsafeBufferPointer<UInt8>) throws(EventRecord.LineFailure) {
        guard UTF8Validation.isValid(line) else { throw .notUTF8 }
        var scanner = JSONScanner(line)
        var reading = Reading()
        let isObject = scanner.object { key, scanner in
            guard let key = Key(key) else { return scanner.skipValue() }
            return reading.read(key, &scanner, at: 0)
        }
        guard isObject, scanner.isAtEnd() else { throw .notJSON }
        self = try reading.scan()
    }

    /// Reads an event from an object already checked and located in one pass (`faultline serve` reads each event
    /// so): the members named ``memberNames`` that `object` located, read as ``init(line:)`` reads them, so that the
    /// scan is the one ``init(line:)`` makes of `object`'s bytes.
    package init(readingMembersOf object: JSONValue.ObjectText) throws(EventRecord.LineFailure) {
        var reading = Reading()
        let isRead = object.bytes.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            for (name, range) in object.members {
                guard let key = Key(name) else { continue }
                var scanner = JSONScanner(UnsafeBufferPointer(rebasing: bytes[range]))
                guard reading.read(key, &scanner, at: range.lowerBound), scanner.isAtEnd() else { return false }
            }
            return true
        }
        guard isRead else { throw .notJSON }
        self = try reading.scan()
    }

    /// The top-level members ``init(line:)`` reads; the others it skips.
    package static let memberNames = Set(Key.names.map { $0.0.description })

    /// The fields read so far from an event's members, in the order they come.
    private struct Reading {
        var fields = EventRecord(eventID: "", timestamp: 0)
        var eventID: String?
        var timestamp: Double?
        var message: String?
        var logEntry: String?
        var messageTemplate: String?
        var logEntryTemplate: String?
        /// Where the members the default grouping reads are, found on the way and read only when it is needed.
        var groupingSources = GroupingSources()

        /// Reads the value of the member `key` at the cursor, whose bytes start at `offset` in the event's; `false`
        /// when it is malformed.
        mutating func read(_ key: Key, _ scanner: inout JSONScanner, at offset: Int) -> Bool {
            let start = offset + scanner.position
            switch key {
            case .eventID:
                guard scanner.nextValueKind() == .string else { return scanner.skipValue() }
                eventID = scanner.string()
                return eventID != nil
            case .timestamp: return scanner.time(into: &timestamp)
            case .level: return EventRecord.readString(&scanner, into: &fields.level, ignored: &fields.ignoredFields)
            case .release:
                return EventRecord.readString(&scanner, into: &fields.release, ignored: &fields.ignoredFields)
            case .environment:
                return EventRecord.readString(&scanner, into: &fields.environment, ignored: &fields.ignoredFields)
            case .message: return fields.readMessage(&scanner, into: &message, template: &messageTemplate)
            case .logEntry: return fields.readMessage(&scanner, into: &logEntry, template: &logEntryTemplate)
            case .fingerprint: return fields.readFingerprint(&scanner)
            case .tags: return fields.readTags(&scanner)
            case .user: return fields.readUser(&scanner)
            case .exception:
                defer { groupingSources.exception = start..<(offset + scanner.position) }
                return fields.readException(&scanner)
            case .threads, .stackTrace, .platform, .template:
                guard scanner.skipValue() else { return false }
                let range = start..<(offset + scanner.position)
                switch key {
                case .threads: groupingSources.threads = range
                case .stackTrace: groupingSources.stackTrace = range
                case .template: groupingSources.template = range
                default: groupingSources.platform = range
                }
                return true
            }
        }

        /// The scan, once every member was read; consumed, so that its fields are moved into the scan, not copied.
        consuming func scan() throws(EventRecord.LineFailure) -> EventScan {
            guard let eventID, let timestamp else { throw .notAnEvent }
            var record = fields
            record.eventID = eventID
            record.timestamp = timestamp
            // Sentry reads `logentry` before `message`
            record.message = logEntry ?? message
            if let carried = record.tags[EventRecord.suppressedCountTag] {
                record.suppressedEvents = Int(carried).map { max(0, $0) } ?? 0
            }
            var sources = groupingSources
            sources.messageTemplate = logEntry != nil ? logEntryTemplate : messageTemplate
            return EventScan(record: record, groupingSources: sources)
        }
    }

    /// The top-level keys triage reads, matched on raw bytes so that the others cost no allocation.
    private enum Key {
        case eventID, timestamp, level, release, environment, message, logEntry, fingerprint, tags, user, exception
        case threads, stackTrace, platform, template

        init?(_ name: String) {
            var name = name
            guard let key = name.withUTF8({ Key($0) }) else { return nil }
            self = key
        }

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

        static let names: [(StaticString, Key)] = [
            ("event_id", .eventID), ("timestamp", .timestamp), ("level", .level), ("release", .release),
            ("environment", .environment), ("message", .message), ("logentry", .logEntry),
            ("fingerprint", .fingerprint),
            ("tags", .tags),
            ("user", .user), ("exception", .exception), ("threads", .threads), ("stacktrace", .stackTrace),
            ("platform", .platform), ("template", .template),
        ]
    }
}

extension EventRecord {
    /// Why a line is not an event.
    package enum LineFailure: Error, Hashable, Sendable {
        /// The bytes are not UTF-8.
        case notUTF8
        /// The line is not one JSON object.
        case notJSON
        /// It is a JSON object, but without a string `event_id` and an RFC 3339 (or numeric) `timestamp`.
        case notAnEvent
    }

    /// Skips a value of an unexpected type, counting it.
    private mutating func ignore(_ scanner: inout JSONScanner) -> Bool {
        ignoredFields += 1
        return scanner.skipValue()
    }

    /// A string or `null`, into `field`; a value of another type is skipped and counted in `ignored`. Static, with
    /// the field `inout`, rather than a key path: this runs for several fields of every event.
    fileprivate static func readString(_ scanner: inout JSONScanner, into field: inout String?, ignored: inout Int)
        -> Bool
    {
        var value: String?
        guard scanner.optionalString(into: &value) else {
            ignored += 1
            return scanner.skipValue()
        }
        field = value
        return true
    }

    /// A string, or Sentry's `{"formatted": …, "message": …, "params": […]}`: the formatted text, else the template
    /// with its parameters put in for `%s` (and `%d`, `%r`, `%f`) in order.
    fileprivate mutating func readMessage(
        _ scanner: inout JSONScanner, into message: inout String?, template: inout String?
    ) -> Bool {
        guard scanner.nextValueKind() == .object else {
            guard scanner.optionalString(into: &message) else { return ignore(&scanner) }
            return true
        }
        var formatted: String?
        var parameters: [String] = []
        let read = scanner.object { key, scanner in
            if JSONScanner.isKey(key, "formatted") {
                return scanner.optionalString(into: &formatted) || ignore(&scanner)
            }
            if JSONScanner.isKey(key, "message") { return scanner.optionalString(into: &template) || ignore(&scanner) }
            guard JSONScanner.isKey(key, "params") else { return scanner.skipValue() }
            guard scanner.nextValueKind() == .array else { return scanner.skipValue() }
            return scanner.array { scanner in
                guard let text = scanner.scalarText() else { return scanner.skipValue() }
                parameters.append(text)
                return true
            }
        }
        message = formatted ?? template.map { Self.formatted($0, parameters) }
        return read
    }

    /// `template` with `parameters` put in for its `%s`, `%d`, `%r` and `%f` in order, as Sentry formats a
    /// `logentry`; `%%` is a percent sign.
    private static func formatted(_ template: String, _ parameters: [String]) -> String {
        guard !parameters.isEmpty, template.contains("%") else { return template }
        var text = ""
        var remaining = parameters[...]
        var characters = template.makeIterator()
        while let character = characters.next() {
            guard character == "%" else {
                text.append(character)
                continue
            }
            switch characters.next() {
            case "%": text.append("%")
            case let conversion? where "sdrf".contains(conversion):
                text += remaining.popFirst() ?? "%\(conversion)"
            case let other?: text += "%\(other)"
            case nil: text.append("%")
            }
        }
        return text
    }

    /// An array of strings or numbers; one with any other part is left out whole, since grouping by part of a
    /// fingerprint would be wrong.
    fileprivate mutating func readFingerprint(_ scanner: inout JSONScanner) -> Bool {
        guard scanner.nextValueKind() == .array else { return ignore(&scanner) }
        var parts: [String] = []
        var isWellTyped = true
        let read = scanner.array { scanner in
            guard let part = scanner.scalarText() else {
                isWellTyped = false
                return scanner.skipValue()
            }
            parts.append(part)
            return true
        }
        if isWellTyped { fingerprint = parts } else { ignoredFields += 1 }
        return read
    }

    /// `{"key": value, …}` or `[["key", value], …]`, values as text; values that are not strings or numbers are
    /// left out.
    fileprivate mutating func readTags(_ scanner: inout JSONScanner) -> Bool {
        switch scanner.nextValueKind() {
        case .object:
            tags.reserveCapacity(8)  // the pipeline sets six; growing from empty would allocate three times
            return scanner.object { key, scanner in
                guard let value = scanner.scalarText() else { return ignore(&scanner) }
                tags[String(decoding: key, as: UTF8.self)] = value
                return true
            }
        case .array:
            return scanner.array { scanner in
                guard scanner.nextValueKind() == .array else { return ignore(&scanner) }
                var pair: [String] = []
                let read = scanner.array { scanner in
                    guard let text = scanner.scalarText() else { return ignore(&scanner) }
                    pair.append(text)
                    return true
                }
                if pair.count == 2 { tags[pair[0]] = pair[1] } else { ignoredFields += 1 }
                return read
            }
        default: return ignore(&scanner)
        }
    }

    /// `{"id": …, "email": …, "username": …, "segment": …}`: the id, else the email, else the username.
    fileprivate mutating func readUser(_ scanner: inout JSONScanner) -> Bool {
        guard scanner.nextValueKind() == .object else { return ignore(&scanner) }
        var id: String?
        var email: String?
        var username: String?
        var segment: String?
        let read = scanner.object { key, scanner in
            if JSONScanner.isKey(key, "id") {
                guard let value = scanner.scalarText() else { return ignore(&scanner) }
                id = value
                return true
            }
            if JSONScanner.isKey(key, "email") { return scanner.optionalString(into: &email) || ignore(&scanner) }
            if JSONScanner.isKey(key, "username") { return scanner.optionalString(into: &username) || ignore(&scanner) }
            if JSONScanner.isKey(key, "segment") { return scanner.optionalString(into: &segment) || ignore(&scanner) }
            return scanner.skipValue()
        }
        user = id ?? email ?? username
        userEmail = email
        userName = username
        userSegment = segment
        return read
    }

    /// `{"values": [{"type": …, "value": …}, …]}`, or the list alone: the last exception, the one that was raised.
    fileprivate mutating func readException(_ scanner: inout JSONScanner) -> Bool {
        switch scanner.nextValueKind() {
        case .object:
            return scanner.object { key, scanner in
                guard JSONScanner.isKey(key, "values") else { return scanner.skipValue() }
                return readExceptionValues(&scanner)
            }
        case .array: return readExceptionValues(&scanner)
        default: return ignore(&scanner)
        }
    }

    private mutating func readExceptionValues(_ scanner: inout JSONScanner) -> Bool {
        guard scanner.nextValueKind() == .array else { return ignore(&scanner) }
        return scanner.array { scanner in
            guard scanner.nextValueKind() == .object else { return ignore(&scanner) }
            return scanner.object { key, scanner in
                if JSONScanner.isKey(key, "type") {
                    return EventRecord.readString(&scanner, into: &exceptionType, ignored: &ignoredFields)
                }
                if JSONScanner.isKey(key, "value") {
                    return EventRecord.readString(&scanner, into: &exceptionValue, ignored: &ignoredFields)
                }
                return scanner.skipValue()
            }
        }
    }
}
