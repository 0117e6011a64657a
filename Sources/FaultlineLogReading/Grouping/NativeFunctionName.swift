import Foundation

/// A native function name as Sentry's grouping reads it when the SDK sent no `raw_function`: the name alone, so that
/// the same function groups the same whatever its signature, template arguments or compiler said.
/// `(anonymous namespace)::crash(int, int)` is `(anonymous namespace)::crash`; `Foo<std::map<…>>::crash() const`
/// is `Foo<T>::crash`; `unsigned int whatever(char)` is `whatever`; Swift's `@objc foo() -> Int` is `foo`, a closure
/// `closure in foo`; Objective-C's `-[Foo bar]` stays as it is; lambdas are `lambda` however the compiler named
/// them; Rust's hash suffix, glibc's symbol version and Windows' `@12` declaration suffix go.
enum NativeFunctionName {
    static func trimmed(_ function: String, platform: GroupingPlatform) -> String {
        if function == "<redacted>" || function == "<unknown>" { return function }
        var name = function.trimmingSpaces
        if name.hasPrefix("[") || name.hasPrefix("+[") || name.hasPrefix("-[") { return name }
        name = replacingEnclosed(name, "[", "]") { inner, _ in inner.hasPrefix("clone .") ? "" : "[\(inner)]" }
        name = name.trimmingSpaces
        while let trailer = ["const", "&"].first(where: { name.hasSuffix($0) && endsAWord(name, $0) }) {
            name = String(name.dropLast(trailer.count)).trimmingSpaces
        }
        for (text, stand) in protected { name = name.replacingAll(text, with: stand) }
        name = normalizingLambdas(name)
        name = replacingEnclosed(name, "(", ")") { inner, _ in
            let inner = inner.trimmingSpaces
            return inner == "anonymous namespace" || inner == "operator" ? "(\(inner))" : ""
        }
        name = replacingEnclosed(name, "<", ">", genericReplacement)
        let isThunk = name.contains("thunk for ")
        var tokens = words(name)
        if tokens.count > 1, tokens.last == "<T>" {
            tokens.removeLast()
            tokens[tokens.count - 1] += " <T>"
        }
        guard var token = functionToken(tokens) else { return function }
        if token.hasPrefix("@"), platform.name == "cocoa" || platform.name == "swift" {
            token = (isThunk ? "thunk for " : "") + "closure"
        } else if tokens.contains("closure"), token != "closure" {
            token = "closure in " + token
        }
        for (text, stand) in protected { token = token.replacingAll(stand, with: text) }
        return strippingSuffixes(token)
    }

    /// Texts that would confuse the balancing of brackets, and what stands for them meanwhile.
    private static let protected: [(String, String)] = [
        ("operator<<", "operator\u{E000}\u{E000}"), ("operator<", "operator\u{E000}"),
        ("operator()", "operator\u{E001}"), ("operator->", "operator\u{E002}"), (" -> ", " \u{E002} "),
        ("`anonymous namespace'", "\u{E003}"),
    ]

    private static func endsAWord(_ name: String, _ trailer: String) -> Bool {
        guard trailer == "const" else { return true }
        let before = name.dropLast(trailer.count).last
        return before.map { !($0.isLetter || $0.isNumber || $0 == "_") } ?? true
    }

    /// The word that names the function: the one before Swift's last `->` (skipping `throws`), else the last.
    private static func functionToken(_ tokens: [String]) -> String? {
        guard !tokens.isEmpty else { return nil }
        if let arrow = tokens.lastIndex(of: "\u{E002}"), arrow > 0 {
            if tokens[arrow - 1] == "throws", arrow > 1 { return tokens[arrow - 2] }
            return tokens[arrow - 1]
        }
        return tokens.last
    }

    /// `<…>` after the start is `<T>`; at the start (Rust's `<Foo as Bar>::baz`) the type it names; a lambda stays.
    private static func genericReplacement(_ inner: String, _ start: Int) -> String {
        if inner == "lambda" { return "<lambda>" }
        if start > 0 { return "<T>" }
        var inner = inner
        if inner.count > 5, inner.dropFirst().hasPrefix(" as "), inner.first?.isUppercase == true {
            inner = String(inner.dropFirst(5))
        }
        inner = replacingEnclosed(inner, "<", ">", genericReplacement)
        return inner.components(separatedBy: " as ").first ?? inner
    }

    /// gcc's `{lambda(int)#1}`, msvc's `lambda_` and 32 hex digits, clang's `$_0`, each as `lambda`.
    private static func normalizingLambdas(_ name: String) -> String {
        guard name.contains("lambda") || name.contains("$_") else { return name }
        var result = ""
        var rest = Substring(name)
        while let character = rest.first {
            if rest.hasPrefix("{lambda("), let close = rest.firstIndex(of: "}") {
                let inner = rest[rest.index(rest.startIndex, offsetBy: 8)..<close]
                if let hash = inner.range(of: ")#"), !inner[hash.upperBound...].isEmpty,
                    inner[hash.upperBound...].allSatisfy(\.isNumber)
                {
                    result += "lambda"
                    rest = rest[rest.index(after: close)...]
                    continue
                }
            }
            if rest.hasPrefix("lambda_"), !(result.last.map(isWordCharacter) ?? false) {
                let digits = rest.dropFirst(7).prefix(33)
                if digits.count >= 32, digits.prefix(32).allSatisfy(\.isHexDigit),
                    !(digits.dropFirst(32).first.map(isWordCharacter) ?? false)
                {
                    result += "lambda"
                    rest = rest.dropFirst(39)
                    continue
                }
            }
            if rest.hasPrefix("$_") {
                let digits = rest.dropFirst(2).prefix { $0.isNumber }
                if !digits.isEmpty, !(rest.dropFirst(2 + digits.count).first.map(isWordCharacter) ?? false) {
                    result += "lambda"
                    rest = rest.dropFirst(2 + digits.count)
                    continue
                }
            }
            result.append(character)
            rest = rest.dropFirst()
        }
        return result
    }

    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }

    /// Rust's `::h` and 16 characters, glibc's `@GLIBC_2.2.5` or `@@GLIBC_…`, Windows' `@12` (and a leading `@`).
    private static func strippingSuffixes(_ name: String) -> String {
        var name = name
        if let range = name.range(of: "::h", options: .backwards), name[range.upperBound...].count == 16,
            name[range.upperBound...].allSatisfy({ $0.isLowercase || $0.isNumber })
        {
            name = String(name[..<range.lowerBound])
        }
        if let range = name.range(of: "@GLIBC_", options: .backwards),
            name[range.upperBound...].allSatisfy({ $0.isNumber || $0 == "." }), !name[range.upperBound...].isEmpty
        {
            let start =
                name[..<range.lowerBound].hasSuffix("@") ? name.index(before: range.lowerBound) : range.lowerBound
            name = String(name[..<start])
        }
        if let at = name.lastIndex(of: "@"), at != name.startIndex, !name[name.index(after: at)...].isEmpty,
            name[name.index(after: at)...].allSatisfy(\.isNumber)
        {
            let start = name.hasPrefix("@") ? name.index(after: name.startIndex) : name.startIndex
            name = String(name[start..<at])
        }
        return name
    }

    /// The text with each outermost `open`…`close` replaced by what `replacement` makes of its inside and its
    /// offset; the text as it is when it has no `open`.
    private static func replacingEnclosed(
        _ text: String, _ open: Character, _ close: Character, _ replacement: (String, Int) -> String
    ) -> String {
        guard text.contains(open) else { return text }
        var result = ""
        var depth = 0
        var inner = ""
        var start = 0
        for (offset, character) in text.enumerated() {
            if character == open {
                if depth == 0 {
                    start = offset
                    inner = ""
                } else {
                    inner.append(character)
                }
                depth += 1
            } else if character == close, depth > 0 {
                depth -= 1
                if depth == 0 { result += replacement(inner, start) } else { inner.append(character) }
            } else if depth > 0 {
                inner.append(character)
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// The words of the name: split at whitespace outside brackets.
    private static func words(_ text: String) -> [String] {
        let pairs: [Character: Character] = ["(": ")", "{": "}", "[": "]", "<": ">"]
        var words: [String] = []
        var current = ""
        var closers: [Character] = []
        for character in text {
            if let closer = pairs[character] {
                closers.append(closer)
            } else if character == closers.last {
                closers.removeLast()
            } else if closers.isEmpty, character.isWhitespace {
                if !current.isEmpty { words.append(current) }
                current = ""
                continue
            }
            current.append(character)
        }
        if !current.isEmpty { words.append(current) }
        return words
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }

    fileprivate func replacingAll(_ text: String, with replacement: String) -> String {
        guard contains(text) else { return self }
        return components(separatedBy: text).joined(separator: replacement)
    }
}
