/// Which values of an event a rule of a Relay PII config applies to, in Relay's selector syntax: a path of keys,
/// indexes, types (`$string`, `$frame`, `$http`), `*` (one level) and `**` (any levels), joined by `.`, and paths
/// combined with `&&`, `||`, `!` and parentheses. `extra.password`, `$frame.vars.*`, `$http.headers.x-api-key`,
/// `$string && !$error.value`, `'sys.argv'.*` (a key with a dot, in quotes; `''` is a quote in one).
///
/// A path matches a value when its items match the value's place from the end: `password` matches every value whose
/// key is `password`; keys are compared case-insensitively. As in Relay, a selector that names no specific path (a
/// basic type such as `$string`, or `**`) reaches only the values that hold user data (``PIIPlace/Sensitivity``).
struct PIISelector: Hashable, Sendable {
    /// A selector's expression: a path, or expressions combined. (A struct rather than a recursive enum: an enum
    /// keeps its case in the spare bits of its payload's pointer, where LeakSanitizer, which the fuzz targets run
    /// under, no longer sees the pointer.)
    struct Expression: Hashable, Sendable {
        enum Operation: Hashable, Sendable {
            case path, all, any, not
        }

        let operation: Operation
        /// A path's items.
        var items: [Item] = []
        /// What `all`, `any` or `not` combines: `not` one expression.
        var operands: [Expression] = []

        static func path(_ items: [Item]) -> Expression { Expression(operation: .path, items: items) }
        static func all(_ operands: [Expression]) -> Expression { Expression(operation: .all, operands: operands) }
        static func any(_ operands: [Expression]) -> Expression { Expression(operation: .any, operands: operands) }
        static func not(_ operand: Expression) -> Expression { Expression(operation: .not, operands: [operand]) }
    }

    /// One item of a path.
    enum Item: Hashable, Sendable {
        /// A value of this type.
        case type(PIIValueType)
        /// The element at this index of an array.
        case index(Int)
        /// The value of the member (or pair) with this key, lowercased.
        case key(String)
        /// Any one value.
        case wildcard
        /// Any number of levels, one at least.
        case deepWildcard
    }

    /// The selector as written in the config.
    let text: String
    let expression: Expression

    /// The selector `text` says.
    ///
    /// - Throws: ``PIIConfig/Invalid`` with the place where `text` breaks the syntax, an unknown type, `**` used twice
    ///   in one path or a path that is only `*`.
    init(parsing text: String) throws(PIIConfig.Invalid) {
        self.text = text
        switch text {
        // Relay's legacy names.
        case "freeform", "email", "sensitive", "text": expression = .path([.type(.string)])
        case "databag", "container": expression = .path([.type(.object)])
        default:
            var parser = Parser(text: text)
            expression = try parser.selector()
        }
    }

    /// Whether the selector reaches the value at `place`.
    func matches(_ place: PIIPlace) -> Bool {
        guard place.sensitivity != .none else { return false }
        return Self.matches(expression, place)
    }

    private static func matches(_ expression: Expression, _ place: PIIPlace) -> Bool {
        switch expression.operation {
        case .path: matches(expression.items, place)
        case .all: expression.operands.allSatisfy { matches($0, place) }
        case .any: expression.operands.contains { matches($0, place) }
        case .not: !expression.operands.contains { matches($0, place) }
        }
    }

    /// Whether `items` match the end of the path to `place`, or, with `**`, its end after the `**` and a run of the
    /// path above it before.
    private static func matches(_ items: [Item], _ place: PIIPlace) -> Bool {
        let levels = place.levels
        guard items.count <= levels.count else { return false }
        let sensitivity = place.sensitivity
        var level = levels.count - 1
        var position = items.count - 1
        // From the end, up to a `**` or the start of the selector.
        while position >= 0 {
            let item = items[position]
            if item == .deepWildcard { break }
            guard level >= 0, matches(item, at: position, levels[level], sensitivity) else { return false }
            level -= 1
            position -= 1
        }
        guard position >= 0 else { return true }
        // The `**` at `position` takes a level, and reaches no value that only may hold user data.
        guard sensitivity == .user, level >= 0 else { return false }
        level -= 1
        let before = items[..<position]
        guard let first = before.first else { return true }
        guard level >= 0 else { return false }
        // The items before `**` match a run of levels from the first one the first item matches, downwards.
        guard let start = levels[...level].firstIndex(where: { matches(first, at: 0, $0, sensitivity) }) else {
            return false
        }
        let run = levels[start...level]
        guard run.count >= before.count else { return false }
        return zip(before, run).enumerated().allSatisfy { offset, pair in
            matches(pair.0, at: offset, pair.1, sensitivity)
        }
    }

    /// Whether the path item at `position` of its selector matches a level of a value of `sensitivity`.
    private static func matches(
        _ item: Item, at position: Int, _ level: PIIPlace.Level, _ sensitivity: PIIPlace.Sensitivity
    ) -> Bool {
        switch item {
        case .wildcard: return true
        case .deepWildcard: return sensitivity == .user
        case .index(let index): return level.index == index
        case .key(let key): return level.key?.lowercased() == key
        case .type(let type):
            guard level.types.contains(type) else { return false }
            // A type names a specific place only at the start of a selector, and only a type of the protocol's.
            return sensitivity == .user || position == 0 && !type.isBasic
        }
    }
}
