/// Secrets embedded in a larger shape: a URL's password, a PEM private key's body.
extension ValueScanner {
    /// The most bytes of user info read back from its `@`.
    private static let maximumUserInfoLength = 256

    /// The password of the URL user info that ends at the `@` at `index`: `scheme://user:password@host`.
    static func urlPassword(endingAt index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        var start = index
        while start > 0, index - start < maximumUserInfoLength, isUserInfoByte(bytes[start - 1]) { start -= 1 }
        guard has("://", at: start - 3, in: bytes),
            let colon = (start..<index).first(where: { bytes[$0] == UInt8(ascii: ":") }), colon + 1 < index
        else { return nil }
        return (colon + 1)..<index
    }

    /// The body of the PEM private key whose `-----BEGIN … PRIVATE KEY-----` line starts at `index`: up to its
    /// `-----END` line, or to the end of the text.
    static func privateKey(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        guard has("-----BEGIN ", at: index, in: bytes) else { return nil }
        let labelStart = index + 11
        var labelEnd = labelStart
        while labelEnd < bytes.count, labelEnd - labelStart < 64, !has("-----", at: labelEnd, in: bytes) {
            labelEnd += 1
        }
        guard has("-----", at: labelEnd, in: bytes),
            (labelStart..<labelEnd).contains(where: { has("PRIVATE KEY-----", at: $0, in: bytes) })
        else { return nil }
        let bodyStart = labelEnd + 5
        var bodyEnd = bodyStart
        while bodyEnd < bytes.count, !has("-----END", at: bodyEnd, in: bytes) { bodyEnd += 1 }
        let content = end(of: bodyStart, in: bytes) { isSpace($0) || $0 == UInt8(ascii: "\n") || $0 == 0x0D }
        guard content < bodyEnd, !isFiltered(at: content, in: bytes) else { return nil }
        return bodyStart..<bodyEnd
    }

    /// RFC 3986's user info: unreserved characters, percent-encodings, sub-delimiters and `:`.
    private static func isUserInfoByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "%"),
            UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
            UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
            UInt8(ascii: "="), UInt8(ascii: ":"):
            true
        default: isAlphanumeric(byte)
        }
    }
}
