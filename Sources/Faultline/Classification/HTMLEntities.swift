/// HTML's character references in text taken from a page: `&amp;`, `&#8212;`, `&#x2014;` and the named ones an error
/// page uses. A reference it does not know stays as it is.
enum HTMLEntities {
    private static let named: [Substring: Character] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "ndash": "–", "mdash": "—",
        "hellip": "…", "laquo": "«", "raquo": "»", "copy": "©", "middot": "·", "rsquo": "’", "lsquo": "‘",
        "rdquo": "”", "ldquo": "“",
    ]

    /// `text` with its character references resolved.
    static func decoded(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = text[...]
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            let afterAmpersand = rest.index(after: ampersand)
            if let semicolon = rest[afterAmpersand...].prefix(12).firstIndex(of: ";"),
                let character = character(for: rest[afterAmpersand..<semicolon])
            {
                result.append(character)
                rest = rest[rest.index(after: semicolon)...]
            } else {
                result.append("&")
                rest = rest[afterAmpersand...]
            }
        }
        return result + rest
    }

    /// The character `name` (what is between `&` and `;`) stands for.
    private static func character(for name: Substring) -> Character? {
        guard name.first == "#" else { return named[name] }
        let digits = name.dropFirst()
        let value =
            digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
        return value.flatMap { $0 >= 0x20 ? Unicode.Scalar($0) : nil }.map(Character.init)
    }
}
