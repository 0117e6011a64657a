/// The byte classes and comparisons the checks read text with; every secret starts and ends at an ASCII byte, so a
/// replacement never splits a character.
extension ValueScanner {
    static func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) &- UInt8(ascii: "a") < 26
    }

    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte)
    }

    /// A letter, a digit or `_`: what a word is made of.
    static func isWordByte(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: "_")
    }

    /// The alphabet of base64url (RFC 4648 §5).
    static func isBase64URL(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }

    /// The characters of an HTTP `token68` credential (RFC 9110 §11.2) before its `=` padding.
    static func isToken68(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "+"),
            UInt8(ascii: "/"):
            true
        default: isAlphanumeric(byte)
        }
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    static func isQuote(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
    }

    /// Whether `bytes` at `index` hold `word`, compared case-insensitively (`word` is lower-case ASCII).
    static func hasWord(_ word: StaticString, at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = word.utf8CodeUnitCount
        guard index >= 0, index + count <= bytes.count else { return false }
        return word.withUTF8Buffer { word in
            (0..<count).allSatisfy { bytes[index + $0] | 0x20 == word[$0] }
        }
    }

    /// Whether `bytes` at `index` hold `text` exactly.
    static func has(_ text: StaticString, at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index >= 0, index + count <= bytes.count else { return false }
        return text.withUTF8Buffer { text in
            (0..<count).allSatisfy { bytes[index + $0] == text[$0] }
        }
    }

    /// Whether the value at `index` is one already replaced, so that scrubbing twice changes nothing.
    static func isFiltered(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        has("[Filtered]", at: index, in: bytes)
    }

    /// Whether `range` looks like a credential rather than a word: 8 bytes with a digit, or 16 bytes.
    static func looksLikeCredential(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        range.count >= 16 || (range.count >= 8 && range.contains { isDigit(bytes[$0]) })
    }

    /// The end of the run of bytes from `index` that `belongs` accepts.
    static func end(
        of index: Int, in bytes: UnsafeBufferPointer<UInt8>, while belongs: (UInt8) -> Bool
    ) -> Int {
        var end = index
        while end < bytes.count, belongs(bytes[end]) { end += 1 }
        return end
    }
}
