/// The escapes of a JSON string (RFC 8259, section 7) decoded into UTF-8: the one place where the scanner and the
/// parser resolve them.
public enum JSONEscape {
    /// Why an escape could not be decoded.
    public enum Failure: Error, Equatable {
        /// The text ends inside the escape.
        case truncated
        /// The character after the backslash starts no escape.
        case notAnEscape
        /// A `\u` is not followed by four hex digits.
        case notFourHexDigits
        /// A high surrogate is not followed by a `\u` escape of a low one.
        case unpairedHighSurrogate
        /// A low surrogate comes without a high one before it.
        case unpairedLowSurrogate

        /// What is wrong, in the words of a parse error.
        public var reason: String {
            switch self {
            case .truncated: "a string is not closed"
            case .notAnEscape: "a backslash is not followed by an escape"
            case .notFourHexDigits: "a \\u escape needs four hex digits"
            case .unpairedHighSurrogate: "a high surrogate escape is not followed by a low one"
            case .unpairedLowSurrogate: "an unpaired low surrogate escape"
            }
        }
    }

    /// How a surrogate escape that is not half of a pair is read.
    public enum LoneSurrogates {
        /// It is a ``Failure``, as a strict parser reads it.
        case rejected
        /// It becomes U+FFFD, as a reader of logged records that must not lose a line over one character reads it.
        case replaced
    }

    /// Decodes the escape whose backslash is at `index` in `bytes`, appends its UTF-8 to `utf8` and moves `index`
    /// past it. On a failure, `index` is where it was found.
    public static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, at index: inout Int, into utf8: inout [UInt8],
        loneSurrogates: LoneSurrogates
    ) -> Failure? {
        index += 1
        guard index < bytes.count else { return .truncated }
        let escaped = bytes[index]
        switch escaped {
        case .quote, .backslash, UInt8(ascii: "/"): utf8.append(escaped)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            index += 1
            guard var scalar = hex4(bytes, at: &index) else { return .notFourHexDigits }
            if (0xD800..<0xDC00).contains(scalar) {
                var next = index
                if next + 1 < bytes.count, bytes[next] == .backslash, bytes[next + 1] == UInt8(ascii: "u") {
                    next += 2
                    let low = hex4(bytes, at: &next)
                    if let low, (0xDC00..<0xE000).contains(low) {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        index = next
                    } else if loneSurrogates == .rejected {
                        index = next
                        return low == nil ? .notFourHexDigits : .unpairedHighSurrogate
                    }
                } else if loneSurrogates == .rejected {
                    return .unpairedHighSurrogate
                }
            }
            guard let unicode = Unicode.Scalar(scalar) else {
                guard loneSurrogates == .replaced else { return .unpairedLowSurrogate }
                utf8.append(contentsOf: Unicode.Scalar.replacement.utf8)
                return nil
            }
            utf8.append(contentsOf: unicode.utf8)
            return nil
        default: return .notAnEscape
        }
        index += 1
        return nil
    }

    /// The text of a string from the bytes between its quotes, its escapes decoded; `nil` when one is invalid.
    public static func unescaped(
        _ raw: UnsafeBufferPointer<UInt8>, loneSurrogates: LoneSurrogates = .replaced
    ) -> String? {
        var utf8: [UInt8] = []
        utf8.reserveCapacity(raw.count)
        var runStart = 0
        var index = 0
        while index < raw.count {
            guard raw[index] == .backslash else {
                index += 1
                continue
            }
            utf8.append(contentsOf: UnsafeBufferPointer(rebasing: raw[runStart..<index]))
            guard decode(raw, at: &index, into: &utf8, loneSurrogates: loneSurrogates) == nil else { return nil }
            runStart = index
        }
        utf8.append(contentsOf: UnsafeBufferPointer(rebasing: raw[runStart...]))
        return String(decoding: utf8, as: UTF8.self)
    }

    /// The four hex digits at `index` as a number, `index` moved past them; `nil`, with `index` at the first byte that
    /// is not one, when there are fewer.
    private static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, at index: inout Int) -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let digit: UInt8
            switch bytes[index] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = bytes[index] - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = bytes[index] - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = bytes[index] - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }
}

extension Unicode.Scalar {
    fileprivate static let replacement: Unicode.Scalar = "\u{FFFD}"
}
