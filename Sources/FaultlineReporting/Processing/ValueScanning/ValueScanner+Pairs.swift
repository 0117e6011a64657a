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
        guard let key = Self.bareKey(endingAt: keyEnd, in: bytes), let naming = naming(ofKey: key, in: bytes) else {
            return nil
        }
        let valueStart = Self.end(of: index + 1, in: bytes, while: Self.isSpace)
        guard valueStart < bytes.count else { return nil }
        let first = bytes[valueStart]
        let value: Range<Int>?
        if Self.isQuote(first) {
            // In `"password=" + secret`, source code a stack frame quotes, the quote closes the key's literal.
            if key.lowerBound > 0, bytes[key.lowerBound - 1] == first { return nil }
            value = Self.quoted(at: valueStart, in: bytes)
        } else {
            value = Self.bareValue(at: valueStart, in: bytes)
        }
        return value.flatMap { Self.filters(naming, $0, in: bytes) ? $0 : nil }
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
        guard let naming = naming(ofKey: key, in: bytes) else { return nil }
        let valueStart = Self.end(of: index + 1, in: bytes, while: Self.isSpace)
        guard valueStart < bytes.count else { return nil }
        let first = bytes[valueStart]
        if Self.isQuote(first) {
            return Self.quoted(at: valueStart, in: bytes).flatMap { Self.filters(naming, $0, in: bytes) ? $0 : nil }
        }
        guard first != UInt8(ascii: "{"), first != UInt8(ascii: "["), !Self.isJSONLiteral(at: valueStart, in: bytes),
            let value = Self.bareValue(at: valueStart, in: bytes)
        else { return nil }
        return isQuotedKey || Self.looksLikeCredential(value, in: bytes) ? value : nil
    }

    /// What a key says of its value: `nil` when it names nothing sensitive.
    private func naming(ofKey range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> SensitiveNames.Naming? {
        let naming = names.naming(of: UnsafeBufferPointer(rebasing: bytes[range]))
        return naming == .none ? nil : naming
    }

    /// Whether a value named as `naming` says is filtered: a secret's always, a sensitive one's unless it is
    /// ordinary.
    package static func filters(
        _ naming: SensitiveNames.Naming, _ value: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        switch naming {
        case .none: false
        case .sensitive: !isOrdinary(value, in: bytes)
        case .secret: true
        }
    }

    /// Whether a value is a small number, a plain word or an id rather than a credential: up to five digits, with a
    /// sign or a decimal part (`5`, `-1`, `0.25`), up to 16 letters, `-` and `_` that start with a letter, in lower
    /// case, capitalised or in upper case (`ok`, `expired`, `invalid_grant`, `Bearer`, `NONE`), or a UUID
    /// (`a9987d6e-9171-4ee1-b61e-10de84f11832`, an idempotency key, a session's id). Credentials mix letters with
    /// digits or cases, or are longer.
    static func isOrdinary(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if range.count == 36 { return isUUID(range, in: bytes) }
        guard let first = range.first, range.count <= 16 else { return false }
        if isLetter(bytes[first]) {
            let rest = range.dropFirst()
            let isWord = rest.allSatisfy {
                isLetter(bytes[$0]) || bytes[$0] == UInt8(ascii: "-") || bytes[$0] == UInt8(ascii: "_")
            }
            let isUpper = { (index: Int) in bytes[index] &- UInt8(ascii: "A") < 26 }
            return isWord
                && (!rest.contains(where: isUpper) || range.allSatisfy { !isLetter(bytes[$0]) || isUpper($0) })
        }
        var index = first
        if bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
        let integerEnd = end(of: index, in: bytes) { isDigit($0) }
        guard integerEnd > index, integerEnd - index <= 5, integerEnd <= range.upperBound else { return false }
        guard integerEnd < range.upperBound else { return true }
        guard bytes[integerEnd] == UInt8(ascii: "."), integerEnd + 1 < range.upperBound else { return false }
        return (integerEnd + 1..<range.upperBound).allSatisfy { isDigit(bytes[$0]) }
    }

    /// Whether the 36 bytes of `range` are a UUID: hex digits in groups of 8, 4, 4, 4 and 12, joined by `-`.
    private static func isUUID(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        range.enumerated().allSatisfy { offset, index in
            let byte = bytes[index]
            guard offset != 8, offset != 13, offset != 18, offset != 23 else { return byte == UInt8(ascii: "-") }
            return isDigit(byte) || (byte | 0x20) &- UInt8(ascii: "a") < 6
        }
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

}
