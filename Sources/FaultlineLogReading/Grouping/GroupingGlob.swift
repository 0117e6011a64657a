/// A pattern of Sentry's stack trace rules (`package:**/Frameworks/libswift*.dylib`, `function:*_block_invoke*`),
/// matched as Sentry matches them: case-insensitively; `?` one character and `*` any run of them, where for a path
/// neither crosses a `/`; `**` any run, `/` included (`**/` also nothing); `[…]` a set, as `[[]` or `\\[` a literal `[`. A
/// path is matched with `\` read as `/`, and matches as well when it starts without the `/` the pattern has.
struct GroupingGlob: Hashable {
    private let pattern: [UInt8]
    private let isPath: Bool
    /// The longest run of the pattern's literal bytes, without a leading `/`: a value that does not hold it cannot
    /// match, which most values are told by a scan, without the matching's backtracking.
    private let requiredBytes: [UInt8]
    /// The byte a match starts with, when the pattern starts with a literal one that a path's missing `/` does not
    /// stand for.
    private let firstByte: UInt8?

    init(_ pattern: String, isPath: Bool) {
        let folded = Self.folded(pattern, isPath: isPath)
        self.pattern = folded
        self.isPath = isPath
        var required = Self.longestLiteralRun(folded, isPath: isPath)
        if required.first == UInt8(ascii: "/") { required.removeFirst() }
        requiredBytes = required
        let first = folded.first
        let isLiteral = first.map { !"*?[\\/".utf8.contains($0) } ?? false
        firstByte = isLiteral ? first : nil
    }

    /// Whether `text`, as ``folded(_:isPath:)`` made it, matches.
    func matches(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        if let firstByte, text.first != firstByte { return false }
        guard Self.contains(text, requiredBytes) else { return false }
        let isMatch = pattern.withUnsafeBufferPointer { match(text, 0, $0, 0) }
        guard !isMatch, isPath, text.first != UInt8(ascii: "/") else { return isMatch }
        let slashed = [UInt8(ascii: "/")] + text
        return slashed.withUnsafeBufferPointer { slashed in pattern.withUnsafeBufferPointer { match(slashed, 0, $0, 0) }
        }
    }

    /// A value as patterns compare it: ASCII lower-cased and, for a path, with `\` as `/`. A frame's values are
    /// folded once for all the rules.
    static func folded(_ value: String, isPath: Bool) -> [UInt8] {
        value.utf8.map { folded($0, isPath: isPath) }
    }

    /// One byte of a value, folded.
    static func folded(_ byte: UInt8, isPath: Bool) -> UInt8 {
        if isPath, byte == UInt8(ascii: "\\") { return UInt8(ascii: "/") }
        return byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
    }

    private func match(
        _ text: UnsafeBufferPointer<UInt8>, _ textIndex: Int, _ pattern: UnsafeBufferPointer<UInt8>, _ patternIndex: Int
    ) -> Bool {
        var textIndex = textIndex
        var patternIndex = patternIndex
        while patternIndex < pattern.count {
            let first = pattern[patternIndex]
            switch first {
            case UInt8(ascii: "*"):
                let rest = patternIndex + 1
                if rest < pattern.count, pattern[rest] == UInt8(ascii: "*") {
                    let afterStars = rest + 1
                    if afterStars < pattern.count, pattern[afterStars] == UInt8(ascii: "/"),
                        match(text, textIndex, pattern, afterStars + 1)
                    {
                        return true
                    }
                    return (textIndex...text.count).contains { match(text, $0, pattern, afterStars) }
                }
                var index = textIndex
                while true {
                    if match(text, index, pattern, rest) { return true }
                    guard index < text.count, !(isPath && text[index] == UInt8(ascii: "/")) else { return false }
                    index += 1
                }
            case UInt8(ascii: "\\") where !isPath && patternIndex + 1 < pattern.count:
                guard textIndex < text.count, text[textIndex] == pattern[patternIndex + 1] else { return false }
                textIndex += 1
                patternIndex += 2
            case UInt8(ascii: "?"):
                guard textIndex < text.count, !(isPath && text[textIndex] == UInt8(ascii: "/")) else { return false }
                textIndex += 1
                patternIndex += 1
            case UInt8(ascii: "["):
                guard textIndex < text.count else { return false }
                guard let close = Self.setEnd(pattern, at: patternIndex) else {
                    guard text[textIndex] == first else { return false }
                    textIndex += 1
                    patternIndex += 1
                    continue
                }
                var setStart = patternIndex + 1
                let isNegated = pattern[setStart] == UInt8(ascii: "!")
                if isNegated { setStart += 1 }
                let isInSet = pattern[setStart..<close].contains(text[textIndex])
                guard isInSet != isNegated else { return false }
                textIndex += 1
                patternIndex = close + 1
            default:
                guard textIndex < text.count, text[textIndex] == first else { return false }
                textIndex += 1
                patternIndex += 1
            }
        }
        return textIndex == text.count
    }

    /// The `]` that closes the set opened by the `[` at `index`: the first after the set's first member, so that
    /// `[]]` and `[[]` are sets of one bracket.
    private static func setEnd(_ pattern: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        guard index + 2 <= pattern.count else { return nil }
        return pattern[(index + 2)...].firstIndex(of: UInt8(ascii: "]"))
    }

    /// The longest run of bytes the pattern matches only as themselves: outside a set, not a wildcard, not escaped.
    private static func longestLiteralRun(_ pattern: [UInt8], isPath: Bool) -> [UInt8] {
        pattern.withUnsafeBufferPointer { pattern in
            var longest: Range<Int> = 0..<0
            var runStart = 0
            var index = 0
            func endRun(at end: Int) {
                if end - runStart > longest.count { longest = runStart..<end }
            }
            while index < pattern.count {
                switch pattern[index] {
                case UInt8(ascii: "*"), UInt8(ascii: "?"), UInt8(ascii: "]"):
                    endRun(at: index)
                    index += 1
                case UInt8(ascii: "\\") where !isPath:
                    endRun(at: index)
                    index += 2
                case UInt8(ascii: "["):
                    endRun(at: index)
                    index = (setEnd(pattern, at: index) ?? index) + 1
                default:
                    index += 1
                    continue
                }
                runStart = index
            }
            endRun(at: min(index, pattern.count))
            return Array(pattern[longest])
        }
    }

    private static func contains(_ text: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first else { return true }
        guard needle.count <= text.count else { return false }
        var index = 0
        let last = text.count - needle.count
        while index <= last {
            guard let found = text[index...last].firstIndex(of: first) else { return false }
            if needle.indices.allSatisfy({ text[found + $0] == needle[$0] }) { return true }
            index = found + 1
        }
        return false
    }
}
