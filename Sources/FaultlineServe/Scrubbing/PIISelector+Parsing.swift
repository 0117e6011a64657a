extension PIISelector {
    /// Reads a selector by Relay's grammar: `||` (or `|`) binds weakest, then `&&` (or `&`), then `!` (or `~`);
    /// spaces may stand between the parts.
    struct Parser {
        private let text: String
        private let characters: [Character]
        private var index = 0

        init(text: String) {
            self.text = text
            characters = Array(text)
        }

        /// The whole text as one selector.
        mutating func selector() throws(PIIConfig.Invalid) -> Expression {
            let expression = try anyOf()
            skipSpaces()
            guard index == characters.count else { throw failure("expected `&&`, `||` or the end") }
            return expression
        }

        private mutating func anyOf() throws(PIIConfig.Invalid) -> Expression {
            var expressions = [try allOf()]
            while consume(operator: "|") { expressions.append(try allOf()) }
            guard expressions.count > 1 else { return expressions[0] }
            return .any(expressions)
        }

        private mutating func allOf() throws(PIIConfig.Invalid) -> Expression {
            var expressions = [try negatedOrNot()]
            while consume(operator: "&") { expressions.append(try negatedOrNot()) }
            guard expressions.count > 1 else { return expressions[0] }
            return .all(expressions)
        }

        private mutating func negatedOrNot() throws(PIIConfig.Invalid) -> Expression {
            skipSpaces()
            if consume("!") || consume("~") { return .not(try parenthesizedOrPath()) }
            return try parenthesizedOrPath()
        }

        private mutating func parenthesizedOrPath() throws(PIIConfig.Invalid) -> Expression {
            skipSpaces()
            guard consume("(") else { return try path() }
            let expression = try anyOf()
            skipSpaces()
            guard consume(")") else { throw failure("expected `)`") }
            return expression
        }

        private mutating func path() throws(PIIConfig.Invalid) -> Expression {
            var items = [try item()]
            while true {
                skipSpaces()
                guard consume(".") else { break }
                items.append(try item())
            }
            guard items.count(where: { $0 == .deepWildcard }) <= 1 else {
                throw PIIConfig.Invalid("the selector \(quoted) uses `**` more than once in one path")
            }
            guard items != [.wildcard] else {
                throw PIIConfig.Invalid("the selector \(quoted) is `*` alone: a wildcard must be part of a path")
            }
            return .path(items)
        }

        private mutating func item() throws(PIIConfig.Invalid) -> Item {
            skipSpaces()
            guard index < characters.count else { throw failure("expected a key, an index, a type, `*` or `**`") }
            let character = characters[index]
            if character == "$" {
                index += 1
                let name = run { $0 == "_" || ("a"..."z").contains($0) }
                guard let type = PIIValueType(rawValue: name) ?? PIIValueType.aliases[name] else {
                    throw PIIConfig.Invalid(
                        "the selector \(quoted) names the unknown type `$\(name)`; known: "
                            + PIIValueType.allCases.map { "$\($0.rawValue)" }.joined(separator: ", "))
                }
                return .type(type)
            }
            if consume("*") { return consume("*") ? .deepWildcard : .wildcard }
            if character.isASCII, character.isNumber {
                let digits = run { $0.isASCII && $0.isNumber }
                guard let value = Int(digits) else { throw failure("the index \(digits) is too large") }
                return .index(value)
            }
            if character == "'" { return .key(try quotedKey().lowercased()) }
            guard character.isASCII, character.isLetter || character == "_" else {
                throw failure("expected a key, an index, a type, `*` or `**`")
            }
            let key = run { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
            return .key(key.lowercased())
        }

        /// A key in quotes, where `''` is a quote.
        private mutating func quotedKey() throws(PIIConfig.Invalid) -> String {
            index += 1
            var key = ""
            while index < characters.count {
                if characters[index] == "'" {
                    guard index + 1 < characters.count, characters[index + 1] == "'" else { break }
                    index += 1
                }
                key.append(characters[index])
                index += 1
            }
            guard !key.isEmpty else { throw failure("expected a key inside the quotes") }
            guard consume("'") else { throw failure("expected the closing `'` of a quoted key") }
            return key
        }

        /// The characters from here that `belongs` accepts.
        private mutating func run(while belongs: (Character) -> Bool) -> String {
            let start = index
            while index < characters.count, belongs(characters[index]) { index += 1 }
            return String(characters[start..<index])
        }

        /// Consumes `&&` or `&` (`character` `&`), `||` or `|`.
        private mutating func consume(operator character: Character) -> Bool {
            skipSpaces()
            guard consume(character) else { return false }
            _ = consume(character)
            return true
        }

        private mutating func consume(_ character: Character) -> Bool {
            guard index < characters.count, characters[index] == character else { return false }
            index += 1
            return true
        }

        private mutating func skipSpaces() {
            while index < characters.count, characters[index] == " " { index += 1 }
        }

        private var quoted: String { "`\(text)`" }

        private func failure(_ expectation: String) -> PIIConfig.Invalid {
            PIIConfig.Invalid("the selector \(quoted) is not valid at character \(index + 1): \(expectation)")
        }
    }
}
