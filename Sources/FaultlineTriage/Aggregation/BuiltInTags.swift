import FaultlineLogReading
import FaultlineRecords

/// The tags Sentry derives from an event's fields and lists beside the ones it sent: `level`, `release`,
/// `environment`, `dist`, `server_name`, `transaction`, `logger`, `url`, `os` and `os.name`, `runtime` and
/// `runtime.name`, `browser` and `browser.name`, `device` and `device.family`, `mechanism` and `handled`. A tag the
/// event sent under one of these names wins.
enum BuiltInTags {
    /// The members of an event the tags are read from, besides what ``EventRecord`` holds.
    private static let members: Set<String> = [
        "server_name", "transaction", "logger", "dist", "request", "contexts", "exception",
    ]

    /// `record`'s tags with the built-in ones, read from `line`, the JSON it was read from.
    static func tags(of record: EventRecord, line: UnsafeBufferPointer<UInt8>) -> [String: String] {
        var tags: [String: String] = [:]
        tags["level"] = record.level
        tags["release"] = record.release
        tags["environment"] = record.environment
        if let event = try? JSONValue.members(members, ofObjectParsing: line) {
            for key in ["server_name", "transaction", "logger", "dist"] { tags[key] = event[key]?.stringValue }
            tags["url"] = event["request"]?.objectValue?["url"]?.stringValue
            let contexts = event["contexts"]?.objectValue ?? [:]
            for name in ["os", "runtime", "browser"] {
                guard let context = contexts[name]?.objectValue, let title = context["name"]?.stringValue else {
                    continue
                }
                tags["\(name).name"] = title
                tags[name] = context["version"]?.stringValue.map { "\(title) \($0)" } ?? title
            }
            if let device = contexts["device"]?.objectValue {
                tags["device"] = device["model"]?.stringValue
                tags["device.family"] = device["family"]?.stringValue
            }
            if let mechanism = raisedException(event["exception"])?["mechanism"]?.objectValue {
                tags["mechanism"] = mechanism["type"]?.stringValue
                if case .bool(let handled) = mechanism["handled"] { tags["handled"] = handled ? "yes" : "no" }
            }
        }
        return tags.merging(record.tags) { _, sent in sent }
    }

    /// The exception raised last: the last of `exception.values` (or of a bare list).
    private static func raisedException(_ exception: JSONValue?) -> [String: JSONValue]? {
        let values: JSONValue? =
            if case .array = exception { exception } else { exception?.objectValue?["values"] }
        guard case .array(let list) = values else { return nil }
        return list.last?.objectValue
    }
}
