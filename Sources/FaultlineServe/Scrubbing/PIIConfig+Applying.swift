import FaultlineRecords
import FaultlineReporting
import Foundation

extension PIIConfig {
    /// The event `json` with the config's rules applied where their selectors match, or `nil` when nothing changed
    /// or `json` is not one JSON text. The rest of its bytes is kept. As in Relay, a whole value that is removed
    /// becomes `null` (its member stays); a part of a text that is removed is taken out; booleans, empty texts and
    /// `true`, `false`, `null`, `undefined` written as texts are left alone.
    package func applied(toEvent json: Data) -> Data? {
        guard !applications.isEmpty else { return nil }
        let walk = PIIWalk(config: self)
        guard let rewritten = try? JSONValue.rewritten(parsing: json, by: walk.rewrite) else { return nil }
        guard walk.hasRedactedUserAddress else { return rewritten }
        return Self.movingScrubbedAddress(of: json, in: rewritten) ?? rewritten
    }

    /// `rewritten` with its user's IP address moved to `user.id`, as Relay moves it, when the rules made a valid
    /// address invalid (hashed, masked, replaced) and the user has no id, username or email: the user is still told
    /// apart from others. `nil` when there is nothing to move.
    private static func movingScrubbedAddress(of original: Data, in rewritten: Data) -> Data? {
        guard let text = try? JSONValue.object(parsing: rewritten, members: ["user"]),
            let range = text.members.last(where: { $0.name == "user" })?.value,
            case .object(var user)? = text.value(of: "user"),
            user["id"] == nil && user["username"] == nil && user["email"] == nil,
            case .string(let address)? = user["ip_address"], !isAddress(address),
            case .object(let given)? = try? JSONValue.members(["user"], ofObjectParsing: original)?["user"],
            case .string(let givenAddress)? = given["ip_address"], isAddress(givenAddress)
        else { return nil }
        user["id"] = .string(address)
        user["ip_address"] = nil
        let written = JSONValue.object(user).compactJSON
        // Only the user is written again; the rest of the text is kept as it was.
        var moved = Data(rewritten.prefix(range.lowerBound))
        moved.append(written)
        moved.append(rewritten.dropFirst(range.upperBound))
        return moved
    }

    /// Whether `text` is an IP address, or `{{auto}}`, which asks the ingest for the client's.
    private static func isAddress(_ text: String) -> Bool {
        guard text != "{{auto}}" else { return true }
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { addressScanner.secrets(in: $0) } == [0..<bytes.count]
    }

    private static let addressScanner = ValueScanner(rules: ScrubRules(), patterns: [.ipAddress])

    /// The rules of the applications whose selectors reach `place`, in order.
    func rules(at place: PIIPlace) -> [PIIRule] {
        guard place.sensitivity != .none else { return [] }
        return applications.filter { $0.selector.matches(place) }.flatMap(\.rules)
    }
}

/// One event's walk under a config: the places of its values as the rewrite reads them, and what the rules write.
private final class PIIWalk {
    /// A value the rewrite has reached: its place, its structure in the event's schema, whether it is a file's
    /// path, and how many of its elements were read (for an array).
    private struct Node {
        var place: PIIPlace
        var structure: PIISchema.Structure
        var isFilePath = false
        var elements = 0
        /// Whether the value is an array of `[key, value]` pairs, which Relay reads by key wherever it is.
        var isPairList = false
        /// Whether the value is a pair of such a list (or of headers, cookies, tags), which is no level of a path:
        /// its value is named by its key, below the list.
        var isListPair = false
    }

    private let config: PIIConfig
    private var nodes: [Node]
    /// Whether a rule changed `user.ip_address`, which may then move to `user.id`.
    private(set) var hasRedactedUserAddress = false

    init(config: PIIConfig) {
        self.config = config
        nodes = [Node(place: PIIPlace(levels: [], sensitivity: .none), structure: .event)]
    }

    var rewrite: JSONRewrite {
        JSONRewrite(
            root: 0,
            member: { [unowned self] key, parent in
                self.member(String(decoding: key, as: UTF8.self), of: Int(parent))
            },
            element: { [unowned self] pairKey, parent in
                self.element(pairKey.map { String(decoding: $0, as: UTF8.self) }, of: Int(parent))
            },
            array: { [unowned self] node, isPairList in
                if isPairList { self.nodes[Int(node)].isPairList = true }
                return node
            },
            container: { [unowned self] node, isObject in self.container(Int(node), isObject: isObject) },
            scalar: { [unowned self] text, kind, node in self.scalar(text, kind, at: Int(node)) })
    }

    private func member(_ key: String, of parent: Int) -> JSONRewrite.Place {
        add(PIISchema.member(key, of: nodes[parent].structure), below: parent, Level(key: key))
    }

    private func element(_ pairKey: String?, of parent: Int) -> JSONRewrite.Place {
        let index = nodes[parent].elements
        nodes[parent].elements += 1
        let node = nodes[parent]
        if node.isListPair {
            // A pair's value is named by its key; the key is read by no rule.
            guard let pairKey else {
                return add(PIISchema.Field(structure: .opaque, sensitivity: .none), below: parent, Level(index: index))
            }
            return add(PIISchema.member(pairKey, of: node.structure), below: parent, Level(key: pairKey))
        }
        if node.isPairList || PIISchema.isPairList(node.structure) {
            nodes.append(Node(place: node.place, structure: node.structure, isListPair: true))
            return JSONRewrite.Place(nodes.count - 1)
        }
        return add(PIISchema.element(of: node.structure), below: parent, Level(index: index))
    }

    private typealias Level = PIIPlace.Level

    private func add(_ field: PIISchema.Field, below parent: Int, _ level: Level) -> JSONRewrite.Place {
        var place = nodes[parent].place
        var level = level
        level.types = field.types
        place.levels.append(level)
        place.sensitivity = field.sensitivity
        nodes.append(Node(place: place, structure: field.structure, isFilePath: field.isFilePath))
        return JSONRewrite.Place(nodes.count - 1)
    }

    /// The place of the value at `node`, with the JSON type found there, which a container of a protocol structure
    /// does not take.
    private func place(of node: Int, _ type: PIIValueType) -> PIIPlace? {
        let found = nodes[node]
        guard !found.isListPair, !found.place.levels.isEmpty else { return nil }
        var place = found.place
        if !type.isContainer || PIISchema.isFreeform(found.structure) {
            place.levels[place.levels.count - 1].types.insert(PIIValueTypes(type))
        }
        return place
    }

    /// `null` instead of an object or array that a rule removes whole: `@anything`, or a key a rule names.
    private func container(_ node: Int, isObject: Bool) -> [UInt8]? {
        guard let place = place(of: node, isObject ? .object : .array) else { return nil }
        return config.rules(at: place).contains { Self.removesWhole($0, place, number: nil) } ? Self.null : nil
    }

    private func scalar(_ text: UnsafeBufferPointer<UInt8>, _ kind: JSONRewrite.Scalar, at node: Int) -> [UInt8]? {
        switch kind {
        case .other:
            // Numbers only: booleans and null hold nothing.
            guard let first = text.first,
                first == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first),
                let place = place(of: node, .number)
            else { return nil }
            return config.rules(at: place).contains { Self.removesWhole($0, place, number: text) } ? Self.null : nil
        case .string(let hasEscapes):
            guard let place = place(of: node, .string) else { return nil }
            let rules = config.rules(at: place)
            guard !rules.isEmpty else { return nil }
            let value: String
            if hasEscapes {
                guard case .string(let parsed)? = try? JSONValue(parsing: text) else { return nil }
                value = parsed
            } else {
                value = String(decoding: UnsafeBufferPointer(rebasing: text.dropFirst().dropLast()), as: UTF8.self)
            }
            guard let result = Self.redacted(value, by: rules, key: place.key, isFilePath: nodes[node].isFilePath)
            else { return nil }
            if place.levels.count == 2, place.levels[0].key == "user", place.key == "ip_address" {
                hasRedactedUserAddress = true
            }
            guard let result else { return Self.null }
            var writer = JSONWriter(capacity: result.utf8.count + 2)
            writer.string(result)
            return writer.bytes
        }
    }

    /// `value` as `rules` redact it: `nil` when they leave it, `.some(nil)` when they remove it. In a file's path the
    /// rules read the directory; when they remove it, the file's name is left.
    private static func redacted(_ value: String, by rules: [PIIRule], key: String?, isFilePath: Bool) -> String?? {
        guard !["", "true", "false", "null", "undefined"].contains(value) else { return nil }
        guard isFilePath else { return redacted(value, by: rules, key: key) }
        guard let separator = value.lastIndex(where: { $0 == "/" || $0 == "\\" }) else { return nil }
        let name = value[separator...]
        guard let directory = redacted(String(value[..<separator]), by: rules, key: key) else { return nil }
        return .some(directory.map { $0 + name } ?? String(name.dropFirst()))
    }

    private static func redacted(_ value: String, by rules: [PIIRule], key: String?) -> String?? {
        var redacting = PIIRedacting(value)
        for rule in rules {
            guard redacting.apply(rule, key: key) else { return .some(nil) }
        }
        return redacting.result.map { .some($0) }
    }

    private static let null = Array("null".utf8)

    /// Whether `rule` removes a value that is not a text (an object, an array, or the number `number`) whole.
    private static func removesWhole(_ rule: PIIRule, _ place: PIIPlace, number: UnsafeBufferPointer<UInt8>?) -> Bool {
        switch rule.matcher {
        case .anything: return true
        case .redactPair(let key): return place.key.map(key.isFound(in:)) ?? false
        case .password:
            guard let key = place.key else { return false }
            let naming = PIIRedacting.names.naming(of: key)
            guard let number else { return naming == .secret }
            return ValueScanner.filters(naming, 0..<number.count, in: number)
        case .pattern, .values: return false
        }
    }
}
