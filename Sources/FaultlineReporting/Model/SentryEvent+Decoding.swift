import FaultlineRecords
import Foundation

/// Reading an event as any Sentry SDK sends it, not only as Faultline writes it: `faultline show` decodes the events
/// other SDKs sent through `faultline serve`. Every member but `event_id` and `timestamp` may be absent; the forms the
/// protocol allows besides Faultline's are read: a numeric `timestamp`, tags as `[key, value]` pairs or with numbers,
/// a `message` object, an exception without a type, value or mechanism, a numeric user id.
extension SentryEvent {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        eventID = try container.decode(String.self, forKey: .eventID)
        if let seconds = try? container.decode(Double.self, forKey: .timestamp) {
            timestamp = RFC3339.string(from: Date(timeIntervalSince1970: seconds))
        } else {
            timestamp = try container.decode(String.self, forKey: .timestamp)
        }
        level = (try? container.decodeIfPresent(Level.self, forKey: .level)) ?? .error
        platform = try container.decodeIfPresent(String.self, forKey: .platform) ?? "other"
        logger = try container.decodeIfPresent(String.self, forKey: .logger)
        release = try container.decodeIfPresent(String.self, forKey: .release)
        dist = try container.decodeIfPresent(String.self, forKey: .dist)
        environment = try container.decodeIfPresent(String.self, forKey: .environment)
        // a host name that is not a string is left out, not a reason to drop the event
        serverName = (try? container.decodeIfPresent(String.self, forKey: .serverName)) ?? nil
        transaction = try container.decodeIfPresent(String.self, forKey: .transaction)
        message = try Self.message(in: container)
        exception = try Self.listed(Exception.self, .exception, in: container)
        threads = try Self.listed(Thread.self, .threads, in: container)
        request = try container.decodeIfPresent(Request.self, forKey: .request)
        user = try container.decodeIfPresent(UserContext.self, forKey: .user)
        tags = try Self.tags(in: container)
        contexts = try container.decodeIfPresent([String: JSONValue].self, forKey: .contexts) ?? [:]
        breadcrumbs = try Self.listed(Breadcrumb.self, .breadcrumbs, in: container)
        fingerprint = try container.decodeIfPresent([JSONValue].self, forKey: .fingerprint)?.map(\.text)
        extra = try container.decodeIfPresent([String: JSONValue].self, forKey: .extra)
        sdk = try container.decodeIfPresent(SDK.self, forKey: .sdk) ?? SDK(name: "unknown", version: "unknown")
    }

    /// A string, or `{"formatted": …, "message": …}`: the formatted text, else the template.
    private static func message(in container: KeyedDecodingContainer<CodingKeys>) throws -> String? {
        switch try container.decodeIfPresent(JSONValue.self, forKey: .message) {
        case .string(let text): text
        case .object(let object): object["formatted"]?.stringValue ?? object["message"]?.stringValue
        default: nil
        }
    }

    /// `{"values": […]}`, or the list alone.
    private static func listed<Element>(
        _ type: Element.Type, _ key: CodingKeys, in container: KeyedDecodingContainer<CodingKeys>
    ) throws -> Values<Element>? {
        if let list = try? container.decodeIfPresent([Element].self, forKey: key) { return Values(list) }
        return try container.decodeIfPresent(Values<Element>.self, forKey: key)
    }

    /// `{"key": value}` or `[["key", value], …]`, numbers and booleans as their text.
    private static func tags(in container: KeyedDecodingContainer<CodingKeys>) throws -> [String: String] {
        if let pairs = try? container.decodeIfPresent([[JSONValue]].self, forKey: .tags) {
            return Dictionary(
                pairs.filter { $0.count == 2 }.map { ($0[0].text, $0[1].text) }, uniquingKeysWith: { _, last in last })
        }
        let tags = try container.decodeIfPresent([String: JSONValue].self, forKey: .tags) ?? [:]
        return tags.mapValues(\.text)
    }
}

extension SentryEvent.Exception {
    /// Reads an exception as any SDK sends it: `type` or `value` may be absent (empty), and `mechanism` too (an
    /// exception Sentry counts as handled, captured by the `generic` mechanism).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decodeIfPresent(String.self, forKey: .type) ?? ""
        value = try container.decodeIfPresent(String.self, forKey: .value) ?? ""
        mechanism =
            try container.decodeIfPresent(Mechanism.self, forKey: .mechanism)
            ?? Mechanism(type: "generic", handled: true)
        stacktrace = try container.decodeIfPresent(SentryEvent.Stacktrace.self, forKey: .stacktrace)
    }
}

extension SentryEvent.Exception.Mechanism {
    /// Reads a mechanism as any SDK sends it: `handled` may be absent (handled, as Sentry reads it).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decodeIfPresent(String.self, forKey: .type) ?? "generic"
        handled = try container.decodeIfPresent(Bool.self, forKey: .handled) ?? true
        data = try container.decodeIfPresent([String: JSONValue].self, forKey: .data)
    }
}

extension UserContext {
    /// Reads a user as any SDK sends it: the id may be a number.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeIfPresent(JSONValue.self, forKey: .id).flatMap { $0 == .null ? nil : $0.text }
        username = try container.decodeIfPresent(String.self, forKey: .username)
        email = try container.decodeIfPresent(String.self, forKey: .email)
        segment = try container.decodeIfPresent(String.self, forKey: .segment)
        ipAddress = try container.decodeIfPresent(String.self, forKey: .ipAddress)
        data = try container.decodeIfPresent([String: JSONValue].self, forKey: .data)
    }
}

extension JSONValue {
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
