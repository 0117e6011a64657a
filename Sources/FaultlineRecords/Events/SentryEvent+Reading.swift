import Foundation

/// Reading an event as any Sentry SDK sends it, not only as Faultline writes it: `faultline show` reads the events
/// other SDKs sent through `faultline serve`. It reads the tree `JSONValue(parsing:)` builds, the one parser every full
/// read of a record uses, beside the encoder whose lines it reads back; only the tools call it, since the SDK never
/// reads an event back. Only `event_id` and `timestamp` are required; every other member may be absent, and one of a
/// type the protocol does not allow there is left out rather than a reason to lose the event. The forms the protocol
/// allows besides Faultline's are read: a numeric `timestamp`, tags as `[key, value]` pairs or with numbers, a
/// `message` object, lists with or without their `values` object, an exception without a type, value or mechanism, a
/// numeric user id.
extension SentryEvent {
    /// Why a line is not an event.
    package enum ReadError: Error, Equatable, CustomStringConvertible {
        /// The line is not one JSON text.
        case notJSON(JSONValue.ParseError)
        /// The line is JSON but not an object.
        case notAnObject
        /// The object lacks a member every event has, or has it with another type.
        case missing(String)

        package var description: String {
            switch self {
            case .notJSON(let error): "\(error)"
            case .notAnObject: "not a JSON object"
            case .missing(let member): "no \(member)"
            }
        }
    }

    /// The event one line of a log (or an envelope's event payload) holds.
    ///
    /// - Throws: ``ReadError`` when the line is not a JSON object with a string `event_id` and a `timestamp`.
    package init(line: some DataProtocol) throws(ReadError) {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: line)
        } catch {
            throw .notJSON(error)
        }
        guard let members = value.objectValue else { throw .notAnObject }
        try self.init(members: members)
    }

    /// The event the members of one JSON object describe.
    ///
    /// - Throws: ``ReadError/missing(_:)`` without a string `event_id` or a `timestamp`.
    package init(members: [String: JSONValue]) throws(ReadError) {
        guard let eventID = members["event_id"]?.stringValue else { throw .missing("event_id") }
        guard let timestamp = members["timestamp"].flatMap(Self.timestamp) else { throw .missing("timestamp") }
        self.init(eventID: eventID)
        self.timestamp = timestamp
        level = members["level"]?.stringValue.flatMap(Level.init(rawValue:)) ?? .error
        platform = members["platform"]?.stringValue ?? "other"
        logger = members["logger"]?.stringValue
        release = members["release"]?.stringValue
        dist = members["dist"]?.stringValue
        environment = members["environment"]?.stringValue
        serverName = members["server_name"]?.stringValue
        transaction = members["transaction"]?.stringValue
        message = members["message"].flatMap(Self.message)
        exception = Self.listed(members["exception"], Exception.init(reading:))
        threads = Self.listed(members["threads"], Thread.init(reading:))
        request = members["request"]?.objectValue.map(Request.init(reading:))
        user = members["user"]?.objectValue.map(UserContext.init(reading:))
        tags = members["tags"]?.textPairs ?? [:]
        contexts = members["contexts"]?.objectValue ?? [:]
        breadcrumbs = Self.listed(members["breadcrumbs"], Breadcrumb.init(reading:))
        fingerprint = members["fingerprint"]?.arrayValue?.map(\.text)
        extra = members["extra"]?.objectValue
        let sdk = members["sdk"]?.objectValue
        self.sdk = SDK(
            name: sdk?["name"]?.stringValue ?? "unknown", version: sdk?["version"]?.stringValue ?? "unknown")
    }

    /// An RFC 3339 string as it is, or seconds since 1970 as one.
    fileprivate static func timestamp(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): text
        case .int(let seconds): RFC3339.string(from: Date(timeIntervalSince1970: Double(seconds)))
        case .double(let seconds) where seconds.isFinite: RFC3339.string(from: Date(timeIntervalSince1970: seconds))
        default: nil
        }
    }

    /// A string, or `{"formatted": …, "message": …}`: the formatted text, else the template.
    private static func message(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): text
        case .object(let object): object["formatted"]?.stringValue ?? object["message"]?.stringValue
        default: nil
        }
    }

    /// `{"values": […]}`, the list alone, or a single item; the items that are not objects, or that `read` refuses,
    /// are left out.
    private static func listed<Element>(
        _ value: JSONValue?, _ read: ([String: JSONValue]) -> Element?
    ) -> Values<Element>? {
        let items: [JSONValue]
        switch value {
        case .array(let list): items = list
        case .object(let object):
            if let values = object["values"] {
                guard let list = values.arrayValue else { return nil }
                items = list
            } else {
                items = [.object(object)]
            }
        default: return nil
        }
        return Values(items.compactMap { $0.objectValue.flatMap(read) })
    }
}

extension SentryEvent.Exception {
    /// An exception as any SDK sends it: `type` or `value` may be absent (empty), and `mechanism` too (an exception
    /// Sentry counts as handled, captured by the `generic` mechanism).
    fileprivate init(reading members: [String: JSONValue]) {
        let mechanism = members["mechanism"]?.objectValue
        self.init(
            type: members["type"]?.stringValue ?? "", value: members["value"]?.stringValue ?? "",
            mechanism: Mechanism(
                type: mechanism?["type"]?.stringValue ?? "generic",
                handled: mechanism?["handled"]?.boolValue ?? true, data: mechanism?["data"]?.objectValue),
            stacktrace: members["stacktrace"]?.objectValue.flatMap(SentryEvent.Stacktrace.init(reading:)))
    }
}

extension SentryEvent.Stacktrace {
    /// A stack trace's frames, oldest first; `nil` without a list of frames.
    fileprivate init?(reading members: [String: JSONValue]) {
        guard let frames = members["frames"]?.arrayValue else { return nil }
        self.init(frames: frames.compactMap { $0.objectValue.map(Frame.init(reading:)) })
    }
}

extension SentryEvent.Stacktrace.Frame {
    fileprivate init(reading members: [String: JSONValue]) {
        self.init(
            function: members["function"]?.stringValue, module: members["module"]?.stringValue,
            filename: members["filename"]?.stringValue, lineno: members["lineno"]?.integerValue,
            package: members["package"]?.stringValue, inApp: members["in_app"]?.boolValue,
            contextLine: members["context_line"]?.stringValue)
    }
}

extension SentryEvent.Thread {
    fileprivate init(reading members: [String: JSONValue]) {
        self.init(
            stacktrace: members["stacktrace"]?.objectValue.flatMap(SentryEvent.Stacktrace.init(reading:)),
            current: members["current"]?.boolValue)
    }
}

extension SentryEvent.Request {
    /// A request as any SDK sends it: headers as an object or as `[name, value]` pairs.
    fileprivate init(reading members: [String: JSONValue]) {
        self.init(
            method: members["method"]?.stringValue, url: members["url"]?.stringValue,
            queryString: members["query_string"]?.stringValue, headers: members["headers"]?.textPairs,
            data: members["data"])
    }
}

extension UserContext {
    /// A user as any SDK sends it: the id may be a number.
    fileprivate init(reading members: [String: JSONValue]) {
        self.init(
            id: members["id"].flatMap { $0 == .null ? nil : $0.text }, username: members["username"]?.stringValue,
            email: members["email"]?.stringValue, segment: members["segment"]?.stringValue,
            ipAddress: members["ip_address"]?.stringValue, data: members["data"]?.objectValue)
    }
}

extension Breadcrumb {
    /// A breadcrumb as any SDK sends it: its timestamp may be seconds since 1970; `nil` without a timestamp.
    fileprivate init?(reading members: [String: JSONValue]) {
        guard let timestamp = members["timestamp"].flatMap(SentryEvent.timestamp) else { return nil }
        self.init(
            type: members["type"]?.stringValue ?? "default", category: members["category"]?.stringValue,
            level: members["level"]?.stringValue.flatMap(Level.init(rawValue:)) ?? .info,
            message: members["message"]?.stringValue, data: members["data"]?.objectValue)
        self.timestamp = timestamp
    }
}

extension JSONValue {
    fileprivate var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// An integer, or a number with no fraction that fits in one.
    fileprivate var integerValue: Int? {
        switch self {
        case .int(let number): number
        case .double(let number): Int(exactly: number)
        default: nil
        }
    }

    /// Names and values as tags and headers come: `{"name": value}` or `[["name", value], …]`, each value as its
    /// ``text``, the last of a repeated name kept; `nil` for anything else.
    fileprivate var textPairs: [String: String]? {
        switch self {
        case .object(let object): object.mapValues(\.text)
        case .array(let pairs):
            Dictionary(
                pairs.compactMap { pair in
                    guard let pair = pair.arrayValue, pair.count == 2 else { return nil }
                    return (pair[0].text, pair[1].text)
                },
                uniquingKeysWith: { _, last in last })
        default: nil
        }
    }

    /// A string as it is, a number or a boolean as its JSON text, anything else as compact JSON.
    fileprivate var text: String {
        switch self {
        case .string(let text): text
        case .int(let number): String(number)
        case .double(let number): String(number)
        case .bool(let flag): String(flag)
        case .null: "null"
        case .object, .array:
            String(decoding: compactJSON, as: UTF8.self)
        }
    }
}
