/// Credentials recognised by their own shape: JSON Web Tokens, the credential after an authorization scheme, and
/// tokens with a known prefix.
extension ValueScanner {
    /// A JWT starting at `index` (the scan finds its `J`): `eyJ` + base64url, `.`, a segment starting `ey` (the payload is a
    /// JSON object too), then optionally `.` and the signature; or three segments of any payload.
    static func jsonWebToken(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        guard has("eyJ", at: index, in: bytes), index == 0 || !isBase64URL(bytes[index - 1]) else { return nil }
        let headerEnd = end(of: index + 3, in: bytes, while: isBase64URL)
        guard headerEnd < bytes.count, bytes[headerEnd] == UInt8(ascii: ".") else { return nil }
        let payloadEnd = end(of: headerEnd + 1, in: bytes, while: isBase64URL)
        guard payloadEnd > headerEnd + 1 else { return nil }
        var tokenEnd = payloadEnd
        var hasSignature = false
        if payloadEnd < bytes.count, bytes[payloadEnd] == UInt8(ascii: ".") {
            tokenEnd = end(of: payloadEnd + 1, in: bytes, while: isBase64URL)
            hasSignature = tokenEnd > payloadEnd + 1
        }
        guard has("ey", at: headerEnd + 1, in: bytes) || hasSignature else { return nil }
        return index..<tokenEnd
    }

    /// The credential after `Bearer `, `Token ` or `Basic ` at `index` (on the scheme's first letter, at a word
    /// boundary).
    static func schemeCredential(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        guard index == 0 || !isWordByte(bytes[index - 1]) else { return nil }
        let isBasic: Bool
        var credentialStart: Int
        if hasWord("bearer", at: index, in: bytes) {
            (isBasic, credentialStart) = (false, index + 6)
        } else if hasWord("token", at: index, in: bytes) {
            (isBasic, credentialStart) = (false, index + 5)
        } else if hasWord("basic", at: index, in: bytes) {
            (isBasic, credentialStart) = (true, index + 5)
        } else {
            return nil
        }
        guard credentialStart < bytes.count, isSpace(bytes[credentialStart]) else { return nil }
        credentialStart = end(of: credentialStart, in: bytes, while: isSpace)
        var credentialEnd = end(of: credentialStart, in: bytes, while: isToken68)
        credentialEnd = end(of: credentialEnd, in: bytes) { $0 == UInt8(ascii: "=") }
        guard credentialEnd == bytes.count || !isWordByte(bytes[credentialEnd]) else { return nil }
        let credential = credentialStart..<credentialEnd
        if isBasic { return decodesToUserAndPassword(credential, in: bytes) ? credential : nil }
        return looksLikeCredential(credential, in: bytes) ? credential : nil
    }

    /// The rest of a token at `index` that starts with one of the prefixes, at a word boundary.
    func prefixedToken(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        guard index == 0 || !Self.isWordByte(bytes[index - 1]) else { return nil }
        for prefix in prefixes where index + prefix.count < bytes.count {
            guard (0..<prefix.count).allSatisfy({ bytes[index + $0] == prefix[$0] }) else { continue }
            let start = index + prefix.count
            let end = Self.end(of: start, in: bytes) { Self.isWordByte($0) || $0 == UInt8(ascii: "-") }
            if end > start, !Self.isFiltered(at: start, in: bytes) { return start..<end }
        }
        return nil
    }

    /// Whether `range` is base64 of `user:password`, as a Basic credential is.
    private static func decodesToUserAndPassword(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard range.count >= 4, range.count.isMultiple(of: 4) else { return false }
        var bits: UInt32 = 0
        var bitCount = 0
        for index in range {
            let byte = bytes[index]
            let value: UInt32
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(byte - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(byte - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(byte - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "+"): value = 62
            case UInt8(ascii: "/"): value = 63
            case UInt8(ascii: "="): return false  // the padding ends the text before a colon was seen
            default: return false
            }
            bits = (bits << 6) | value
            bitCount += 6
            if bitCount >= 8 {
                bitCount -= 8
                if (bits >> UInt32(bitCount)) & 0xFF == UInt32(UInt8(ascii: ":")) { return true }
            }
        }
        return false
    }
}
