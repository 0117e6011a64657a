/// Values named by a sensitive key inside text: `key=value` (query strings, form bodies, cookies, debug output),
/// `"key": "value"` (JSON and Python dictionaries) and `Key: value` (headers, YAML).
extension ValueScanner {
    /// The most bytes of a key read back from its separator.
    private static let maximumKeyLength = 64

    /// The value of a pair whose separator (`=` or `:`) is at `index`, when its key is sensitive.
    func pairValue(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        guard index > 0, index + 1 < bytes.count else { return nil }
        return bytes[index] == UInt8(ascii: "=")
            ? equalsValue(at: index, in: bytes) : colonValue(at: index, in: bytes)
    }

    /// `key=value` and `key = "value"`; not `==`, `!=`, `<=` or `>=`.
    private func equalsValue(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        switch (bytes[index - 1], bytes[index + 1]) {
        case (UInt8(ascii: "="), _), (UInt8(ascii: "!"), _), (UInt8(ascii: "<"), _), (UInt8(ascii: ">"), _),
            (_, UInt8(ascii: "=")):
            return nil
        default: break
        }
        var keyEnd = index
        while keyEnd > 0, Self.isSpace(bytes[keyEnd - 1]), index - keyEnd < 2 { keyEnd -= 1 }
        guard let key = Self.bareKey(endingAt: keyEnd, in: bytes), isSensitiveKey(key, in: bytes) else { return nil }
        let valueStart = Self.end(of: index + 1, in: bytes, while: Self.isSpace)
        guard valueStart < bytes.count else { return nil }
        let first = bytes[valueStart]
        guard Self.isQuote(first) else { return Self.bareValue(at: valueStart, in: bytes) }
        // In `"password=" + secret`, source code a stack frame quotes, the quote closes the key's literal.
        if key.lowerBound > 0, bytes[key.lowerBound - 1] == first { return nil }
        return Self.quoted(at: valueStart, in: bytes)
    }

    /// `"key": value`, `'key': value` with any value but an object, an array, `true`, `false` or `null`; and
    /// `Key: value` with a space after the colon, whose unquoted value counts when it looks like a credential.
    private func colonValue(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        var keyEnd = index
        while keyEnd > 0, Self.isSpace(bytes[keyEnd - 1]), index - keyEnd < 2 { keyEnd -= 1 }
        guard keyEnd > 0 else { return nil }
        let isQuotedKey = Self.isQuote(bytes[keyEnd - 1])
        let key: Range<Int>
        if isQuotedKey {
            guard let quoted = Self.quotedKey(endingAt: keyEnd, in: bytes) else { return nil }
            key = quoted
        } else {
            // `https://`, `12:30`, `a:b` are no pairs: a bare key needs a space after its colon.
            guard keyEnd == index, Self.isSpace(bytes[index + 1]), let bare = Self.bareKey(endingAt: index, in: bytes)
            else { return nil }
            key = bare
        }
        guard isSensitiveKey(key, in: bytes) else { return nil }
        let valueStart = Self.end(of: index + 1, in: bytes, while: Self.isSpace)
        guard valueStart < bytes.count else { return nil }
        let first = bytes[valueStart]
        if Self.isQuote(first) { return Self.quoted(at: valueStart, in: bytes) }
        guard first != UInt8(ascii: "{"), first != UInt8(ascii: "["), !Self.isJSONLiteral(at: valueStart, in: bytes),
            let value = Self.bareValue(at: valueStart, in: bytes)
        else { return nil }
        return isQuotedKey || Self.looksLikeCredential(value, in: bytes) ? value : nil
    }

    /// Whether the key in `range` contains a sensitive term, or the custom rule says it is sensitive.
    private func isSensitiveKey(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for term in terms where term.count <= range.count {
            for start in range.lowerBound...(range.upperBound - term.count) {
                if (0..<term.count).allSatisfy({ Self.lowercased(bytes[start + $0]) == term[$0] }) { return true }
            }
        }
        guard let isSensitiveName else { return false }
        return isSensitiveName(String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self))
    }

    /// The unquoted key ending at `end`: letters, digits, `_`, `-`, `.`, `[` and `]` (`user[password]`).
    private static func bareKey(endingAt end: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        var start = end
        while start > 0, end - start < maximumKeyLength, isKeyByte(bytes[start - 1]) { start -= 1 }
        return start < end ? start..<end : nil
    }

    /// The inside of the quoted key whose closing quote is just before `end`, on one line.
    private static func quotedKey(endingAt end: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        let quote = bytes[end - 1]
        var start = end - 1
        while start > 0, end - start <= maximumKeyLength {
            let byte = bytes[start - 1]
            if byte == quote { return start < end - 1 ? start..<(end - 1) : nil }
            if byte == UInt8(ascii: "\n") { return nil }
            start -= 1
        }
        return nil
    }

    /// The inside of the quoted value opening at `index`, to its closing quote or the end of the line.
    private static func quoted(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        let quote = bytes[index]
        let start = index + 1
        var end = start
        while end < bytes.count, bytes[end] != quote, bytes[end] != UInt8(ascii: "\n") {
            end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
        }
        end = min(end, bytes.count)
        guard end > start, !isFiltered(at: start, in: bytes) else { return nil }
        return start..<end
    }

    /// The unquoted value starting at `index`, to a space, a separator or a closing bracket.
    private static func bareValue(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        let end = end(of: index, in: bytes) { !isValueDelimiter($0) }
        guard end > index, !isFiltered(at: index, in: bytes) else { return nil }
        return index..<end
    }

    private static func isKeyByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "["), UInt8(ascii: "]"): true
        default: isAlphanumeric(byte)
        }
    }

    private static func isValueDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "&"),
            UInt8(ascii: ";"), UInt8(ascii: ","), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "<"),
            UInt8(ascii: ">"), UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: "|"),
            UInt8(ascii: "\\"):
            true
        default: false
        }
    }

    private static func isJSONLiteral(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        has("true", at: index, in: bytes) || has("false", at: index, in: bytes) || has("null", at: index, in: bytes)
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
    }
}
