/// The version of the schema of every `--json` output, written first in each as `schema_version`. It changes only
/// when a field is renamed, retyped or removed; fields may be added within a version.
package enum JSONSchemaVersion {
    /// The current version.
    package static let current = 1

    private enum Key: String, CodingKey {
        case schemaVersion = "schema_version"
    }

    /// Writes `schema_version` into the object `encoder` encodes.
    static func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(current, forKey: .schemaVersion)
    }
}

extension JSONSchemaVersion {
    /// `json`, an object `JSONEncoder` wrote with sorted keys (pretty-printed or compact), with its `schema_version`
    /// member moved first, where the schema promises it; every other byte as it was. `json` is returned as it is when
    /// the member is first already or missing.
    package static func movedFirst(in json: [UInt8]) -> [UInt8] {
        guard json.first == UInt8(ascii: "{"), let member = topLevelMember(in: json) else { return json }
        // The member is removed with the comma before it, then placed after the brace with a comma after it.
        var moved = json
        moved.removeSubrange(member.commaBefore..<member.end)
        moved.insert(contentsOf: json[(member.commaBefore + 1)..<member.end] + [UInt8(ascii: ",")], at: 1)
        return moved
    }

    private static let key = Array(#""schema_version""#.utf8)

    /// Where the top-level `schema_version` member is: the offset of the comma before it, and the end of its value.
    private static func topLevelMember(in json: [UInt8]) -> (commaBefore: Int, end: Int)? {
        var depth = 0
        var index = 0
        var lastSeparator = 0
        while index < json.count {
            switch json[index] {
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            case UInt8(ascii: ","): if depth == 1 { lastSeparator = index }
            case UInt8(ascii: "\""):
                if depth == 1, json[index...].starts(with: key), let end = valueEnd(in: json, after: index + key.count)
                {
                    return json[lastSeparator] == UInt8(ascii: ",") ? (lastSeparator, end) : nil
                }
                index = stringEnd(in: json, from: index)
                continue
            default: break
            }
            index += 1
        }
        return nil
    }

    /// The end of the number after the colon that follows a key ending at `offset`; `nil` when no colon follows (the
    /// string was a value).
    private static func valueEnd(in json: [UInt8], after offset: Int) -> Int? {
        var index = offset
        while index < json.count, json[index] == UInt8(ascii: " ") { index += 1 }
        guard index < json.count, json[index] == UInt8(ascii: ":") else { return nil }
        index += 1
        while index < json.count, json[index] == UInt8(ascii: " ") { index += 1 }
        while index < json.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(json[index]) { index += 1 }
        return index
    }

    /// The offset just past the string that starts at `start`.
    private static func stringEnd(in json: [UInt8], from start: Int) -> Int {
        var index = start + 1
        while index < json.count, json[index] != UInt8(ascii: "\"") {
            index += json[index] == UInt8(ascii: "\\") ? 2 : 1
        }
        return index + 1
    }
}
