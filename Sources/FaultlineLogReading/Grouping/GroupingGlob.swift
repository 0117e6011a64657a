/// A pattern of Sentry's stack trace rules (`package:**/Frameworks/libswift*.dylib`, `function:*_block_invoke*`),
/// matched as Sentry matches them: case-insensitively; `?` one character and `*` any run of them, where for a path
/// neither crosses a `/`; `**` any run, `/` included (`**/` also nothing); `[…]` a set, as `[[]` or `\\[` a literal `[`. A
/// path is matched with `\` read as `/`, and matches as well when it starts without the `/` the pattern has.
struct GroupingGlob: Hashable {
    private let pattern: [UInt8]
    private let isPath: Bool

    init(_ pattern: String, isPath: Bool) {
        self.pattern = Self.folded(pattern, isPath: isPath)
        self.isPath = isPath
    }

    /// Whether `text`, as ``folded(_:isPath:)`` made it, matches.
    func matches(_ text: [UInt8]) -> Bool {
        if match(text[...], pattern[...]) { return true }
        return isPath && text.first != UInt8(ascii: "/") && match(([UInt8(ascii: "/")] + text)[...], pattern[...])
    }

    /// A value as patterns compare it: ASCII lower-cased and, for a path, with `\` as `/`. A frame's values are
    /// folded once for all the rules.
    static func folded(_ value: String, isPath: Bool) -> [UInt8] {
        value.utf8.map { byte in
            if isPath, byte == UInt8(ascii: "\\") { return UInt8(ascii: "/") }
            return byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
        }
    }

    private func match(_ text: ArraySlice<UInt8>, _ pattern: ArraySlice<UInt8>) -> Bool {
        guard let first = pattern.first else { return text.isEmpty }
        let rest = pattern.dropFirst()
        switch first {
        case UInt8(ascii: "*"):
            if rest.first == UInt8(ascii: "*") {
                let afterStars = rest.dropFirst()
                if afterStars.first == UInt8(ascii: "/"), match(text, afterStars.dropFirst()) { return true }
                return text.indices.contains { match(text[$0...], afterStars) }
                    || match(text[text.endIndex...], afterStars)
            }
            var index = text.startIndex
            while true {
                if match(text[index...], rest) { return true }
                guard index < text.endIndex, !(isPath && text[index] == UInt8(ascii: "/")) else { return false }
                index += 1
            }
        case UInt8(ascii: "\\") where !isPath && !rest.isEmpty:
            return text.first == rest.first && match(text.dropFirst(), rest.dropFirst())
        case UInt8(ascii: "?"):
            guard let byte = text.first, !(isPath && byte == UInt8(ascii: "/")) else { return false }
            return match(text.dropFirst(), rest)
        case UInt8(ascii: "["):
            guard let close = rest.dropFirst().firstIndex(of: UInt8(ascii: "]")), let byte = text.first else {
                return text.first == first && match(text.dropFirst(), rest)
            }
            var set = rest[rest.startIndex..<close]
            let isNegated = set.first == UInt8(ascii: "!")
            if isNegated { set = set.dropFirst() }
            guard set.contains(byte) != isNegated else { return false }
            return match(text.dropFirst(), pattern[(close + 1)...])
        default:
            return text.first == first && match(text.dropFirst(), rest)
        }
    }
}
