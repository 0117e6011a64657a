/// Event ids as Sentry's ingest reads them: a UUID written plain (32 hex digits), with hyphens, in braces or as a URN,
/// in either case, stored as 32 lowercase hex digits, so that one event written two ways is one event.
enum EventID {
    /// `text` as 32 lowercase hex digits; `nil` when it is not a UUID.
    static func normalized(_ text: String) -> String? {
        if text.utf8.count == 32, text.utf8.allSatisfy(isLowercaseHexDigit) { return text }
        var body = Substring(text)
        if body.count == 45, body.prefix(9).lowercased() == "urn:uuid:" {
            body = body.dropFirst(9)
        } else if body.count == 38, body.first == "{", body.last == "}" {
            body = body.dropFirst().dropLast()
        }
        let hexDigits: [UInt8]
        switch body.utf8.count {
        case 32: hexDigits = Array(body.utf8)
        case 36:
            let bytes = Array(body.utf8)
            guard [8, 13, 18, 23].allSatisfy({ bytes[$0] == UInt8(ascii: "-") }) else { return nil }
            hexDigits = bytes.enumerated().filter { ![8, 13, 18, 23].contains($0.offset) }.map(\.element)
        default: return nil
        }
        var lowered = [UInt8]()
        lowered.reserveCapacity(32)
        for digit in hexDigits {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): lowered.append(digit)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): lowered.append(digit + 32)
            default: return nil
            }
        }
        return String(decoding: lowered, as: UTF8.self)
    }

    private static func isLowercaseHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }
}
