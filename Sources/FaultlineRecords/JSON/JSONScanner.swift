import Foundation

/// A cursor over the bytes of one JSON document that reads the few values triage needs and skips the rest without
/// building them: the breadcrumbs that make up most of an event are stepped over, never decoded, which is many times
/// faster than `JSONDecoder` (Benchmarks/README.md).
///
/// It checks what it reads (strings, numbers, the shape of the members it visits) and the nesting of what it skips,
/// but not every byte inside skipped values (a control character inside a skipped string passes): a line is
/// validated as UTF-8 separately. Its strict mode, which checks every byte and builds values (`JSONValue(parsing:)`,
/// the one-pass object readers serve scrubs with), reads with this cursor too.
public struct JSONScanner {
    @usableFromInline let bytes: UnsafeBufferPointer<UInt8>
    /// The offset of the cursor in the bytes.
    @inlinable public var position: Int { cursor }
    /// The offset of the cursor, which only the scanner moves.
    @usableFromInline var cursor = 0

    @inlinable public init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The kinds of JSON values.
    public enum ValueKind {
        case object, array, string, number, boolean, null
    }

    /// The kind of the value at the cursor, told by its first byte (whitespace before it is skipped); `nil` when no
    /// value starts there.
    @inlinable public mutating func nextValueKind() -> ValueKind? {
        skipWhitespace()
        guard cursor < bytes.count else { return nil }
        switch bytes[cursor] {
        case .openBrace: return .object
        case .openBracket: return .array
        case .quote: return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .boolean
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        default: return nil
        }
    }

    /// Whether only whitespace is left.
    @inlinable public mutating func isAtEnd() -> Bool {
        skipWhitespace()
        return cursor == bytes.count
    }

    /// Reads an object, calling `member` with each key's raw bytes (escapes left as they are) and the scanner at its
    /// value, which `member` must read or skip; `false` when `member` does, or the object is malformed.
    @inline(__always) @inlinable public mutating func object(
        _ member: (UnsafeBufferPointer<UInt8>, inout JSONScanner) -> Bool
    ) -> Bool {
        guard take(.openBrace) else { return false }
        if take(.closeBrace) { return true }
        repeat {
            skipWhitespace()
            guard let key = rawString(), take(.colon) else { return false }
            skipWhitespace()
            guard member(key, &self) else { return false }
        } while take(.comma)
        return take(.closeBrace)
    }

    /// Moves the cursor into the object at the cursor, to the value of its member `name`, stepping over the members
    /// before it without reading them (a member of that name inside one of them is not it); `false` when the value
    /// at the cursor is not an object, has no such member, or is malformed before it.
    @inlinable public mutating func locate(member name: StaticString) -> Bool {
        guard take(.openBrace) else { return false }
        if take(.closeBrace) { return false }
        repeat {
            skipWhitespace()
            guard let key = rawString(), take(.colon) else { return false }
            skipWhitespace()
            if Self.isKey(key, name) { return true }
            guard skipValue() else { return false }
        } while take(.comma)
        return false
    }

    /// The string value of the top-level member `name` of the object `bytes` hold, found with ``locate(member:)``
    /// without reading the rest; `nil` when there is none or it is not a string.
    public static func string(ofMember name: StaticString, in bytes: Data) -> String? {
        bytes.withUnsafeBytes { raw in
            var scanner = JSONScanner(raw.bindMemory(to: UInt8.self))
            return scanner.locate(member: name) ? scanner.string() : nil
        }
    }

    /// Reads an array, calling `element` with the scanner at each element.
    @inline(__always) @inlinable public mutating func array(_ element: (inout JSONScanner) -> Bool) -> Bool {
        guard take(.openBracket) else { return false }
        if take(.closeBracket) { return true }
        repeat {
            skipWhitespace()
            guard element(&self) else { return false }
        } while take(.comma)
        return take(.closeBracket)
    }

    /// Reads a string, unescaped; `nil` when the value is not a string.
    @inlinable public mutating func string() -> String? {
        guard let raw = rawString() else { return nil }
        guard raw.contains(.backslash) else { return String(decoding: raw, as: UTF8.self) }
        return JSONEscape.unescaped(raw)
    }

    /// Hands the UTF-8 bytes of the string at the cursor, unescaped, to `body`, without building a `String` when the
    /// string has no escapes; `nil` when the value is not a string or an escape is invalid.
    @inlinable public mutating func withStringBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        guard let raw = rawString() else { return nil }
        guard raw.contains(.backslash) else { return body(raw) }
        guard var text = JSONEscape.unescaped(raw) else { return nil }
        return text.withUTF8(body)
    }

    /// The text of a string read without copying it: the bytes of the document between its quotes when it has no
    /// escapes (valid as long as the document's bytes are), else the string unescaped.
    public enum Text {
        case bytes(UnsafeBufferPointer<UInt8>)
        case string(String)

        /// Hands its UTF-8 bytes to `body`.
        @inlinable public func withUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
            switch self {
            case .bytes(let bytes): return body(bytes)
            case .string(var string): return string.withUTF8(body)
            }
        }

        /// It as a `String`.
        @inlinable public var string: String {
            switch self {
            case .bytes(let bytes): String(decoding: bytes, as: UTF8.self)
            case .string(let string): string
            }
        }
    }

    /// Reads a string as ``Text``, for a value that is only sometimes needed: building a `String` for each costs
    /// more than scanning it. `nil` when the value is not a string or an escape is invalid.
    @inlinable public mutating func text() -> Text? {
        guard let raw = rawString() else { return nil }
        guard raw.contains(.backslash) else { return .bytes(raw) }
        return JSONEscape.unescaped(raw).map(Text.string)
    }

    /// Reads a string, or `null` as `nil`; `false` when the value is neither.
    @inlinable public mutating func optionalString(into value: inout String?) -> Bool {
        if takeLiteral("null") {
            value = nil
            return true
        }
        guard let string = string() else { return false }
        value = string
        return true
    }

    /// Reads `true` or `false`; `nil` when the value is neither.
    @inlinable public mutating func boolean() -> Bool? {
        if takeLiteral("true") { return true }
        return takeLiteral("false") ? false : nil
    }

    /// The text of a key from its raw bytes (as ``object(_:)`` hands them over), its escapes read; `nil` when an
    /// escape is invalid.
    @inlinable public static func key(_ raw: UnsafeBufferPointer<UInt8>) -> String? {
        raw.contains(.backslash) ? JSONEscape.unescaped(raw) : String(decoding: raw, as: UTF8.self)
    }

    /// Whether the raw bytes of a key are `name`: keys are matched on their bytes, without building a string for
    /// each.
    @inline(__always) @inlinable public static func isKey(_ raw: UnsafeBufferPointer<UInt8>, _ name: StaticString)
        -> Bool
    {
        guard raw.count == name.utf8CodeUnitCount else { return false }
        guard let base = raw.baseAddress else { return true }
        return memcmp(base, name.utf8Start, raw.count) == 0
    }

    /// Reads a number as a `Double`; `nil` when the value is not a number.
    @inlinable public mutating func number() -> Double? {
        let start = cursor
        while cursor < bytes.count, Self.isNumberByte(bytes[cursor]) { cursor += 1 }
        guard cursor > start else { return nil }
        return Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<cursor]), as: UTF8.self))
    }

    /// Reads an integer: digits, with a minus sign before them or not; `nil` when the value is another number (a
    /// fraction, an exponent), something else, or past `Int`'s range.
    @inlinable public mutating func integer() -> Int? {
        let start = cursor
        let isNegative = cursor < bytes.count && bytes[cursor] == 0x2D
        if isNegative { cursor += 1 }
        var value = 0
        var digits = 0
        while cursor < bytes.count, (0x30...0x39).contains(bytes[cursor]) {
            let (times, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowedAgain) = times.addingReportingOverflow(Int(bytes[cursor] - 0x30))
            guard !overflowed, !overflowedAgain else { return nil }
            value = sum
            digits += 1
            cursor += 1
        }
        let isWhole = cursor >= bytes.count || !Self.isNumberByte(bytes[cursor])
        guard digits > 0, isWhole, digits == 1 || bytes[start + (isNegative ? 1 : 0)] != 0x30 else {
            cursor = start
            return nil
        }
        return isNegative ? -value : value
    }

    /// Reads the array of `[integer, integer]` pairs at the cursor when it is written compactly, as Faultline writes a
    /// histogram (`[[512,3],[544,1]]`: no whitespace, integers without a sign, fraction or leading zero, of at most 18
    /// digits), handing each pair to `pair`: without the general reader's calls per value, which cost most of reading
    /// request outcomes. Returns `nil`, with the cursor where it was, when the array is written any other way, for the
    /// caller to read it with ``array(_:)`` after undoing what `pair` did; `false` when `pair` refused a pair.
    @inlinable public mutating func compactIntegerPairs(_ pair: (Int, Int) -> Bool) -> Bool? {
        var index = cursor
        func byte() -> UInt8? { index < bytes.count ? bytes[index] : nil }
        func natural() -> Int? {
            guard let first = byte(), (0x30...0x39).contains(first) else { return nil }
            index += 1
            guard first != 0x30 else { return 0 }  // what follows must be `,` or `]`, which the caller checks
            var value = Int(first - 0x30)
            var digits = 1
            while let next = byte(), (0x30...0x39).contains(next) {
                guard digits < 18 else { return nil }
                value = value * 10 + Int(next - 0x30)
                digits += 1
                index += 1
            }
            return value
        }
        guard byte() == .openBracket else { return nil }
        index += 1
        if byte() == .closeBracket {
            cursor = index + 1
            return true
        }
        while true {
            guard byte() == .openBracket else { return nil }
            index += 1
            guard let lowerBound = natural(), byte() == .comma else { return nil }
            index += 1
            guard let count = natural(), byte() == .closeBracket else { return nil }
            index += 1
            guard pair(lowerBound, count) else { return false }
            switch byte() {
            case .comma?: index += 1
            case .closeBracket?:
                cursor = index + 1
                return true
            default: return nil
            }
        }
    }

    /// Reads a time as Sentry sends one, an RFC 3339 text or seconds since 1970, into `time` as seconds since 1970:
    /// `nil` when it is neither, or out of ``RFC3339/range``, and a value of another type is skipped; `false` when the
    /// value is malformed.
    public mutating func time(into time: inout Double?) -> Bool {
        switch nextValueKind() {
        case .string:
            guard let seconds = withStringBytes(RFC3339.seconds) else { return false }
            time = seconds
            return true
        case .number:
            guard let seconds = number() else { return false }
            time = RFC3339.range.contains(seconds) ? seconds : nil
            return true
        default: return skipValue()
        }
    }

    /// Reads a string or a number as text: tags such as `http.status_code` may come either way.
    @inlinable public mutating func scalarText() -> String? {
        guard cursor < bytes.count else { return nil }
        if bytes[cursor] == .quote { return string() }
        let start = cursor
        guard number() != nil else { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<cursor]), as: UTF8.self)
    }

    /// Steps over any value, checking that brackets nest and strings end.
    @inlinable public mutating func skipValue() -> Bool {
        guard cursor < bytes.count else { return false }
        switch bytes[cursor] {
        case .quote: return rawString() != nil
        case .openBrace, .openBracket: return skipContainer()
        case UInt8(ascii: "t"): return takeLiteral("true")
        case UInt8(ascii: "f"): return takeLiteral("false")
        case UInt8(ascii: "n"): return takeLiteral("null")
        default: return number() != nil
        }
    }

    /// Steps over any value, as ``skipValue()`` does, and hands `body` its bytes as sent (a string with its quotes
    /// and escapes).
    @inlinable public mutating func skipValue(_ body: (UnsafeBufferPointer<UInt8>) -> Void) -> Bool {
        skipWhitespace()
        let start = cursor
        guard skipValue() else { return false }
        body(UnsafeBufferPointer(rebasing: bytes[start..<cursor]))
        return true
    }

    // MARK: Bytes

    @usableFromInline mutating func skipWhitespace() {
        while cursor < bytes.count {
            switch bytes[cursor] {
            case .space, .tab, .newline, .carriageReturn: cursor += 1
            default: return
            }
        }
    }

    @usableFromInline mutating func take(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard cursor < bytes.count, bytes[cursor] == byte else { return false }
        cursor += 1
        return true
    }

    @usableFromInline mutating func takeLiteral(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard cursor + count <= bytes.count else { return false }
        for step in 0..<count where bytes[cursor + step] != literal.utf8Start[step] { return false }
        cursor += count
        return true
    }

    /// The bytes between the quotes of the string at the cursor, escapes included.
    @usableFromInline mutating func rawString() -> UnsafeBufferPointer<UInt8>? {
        guard cursor < bytes.count, bytes[cursor] == .quote,
            case .closed(let closingQuote, _, _) = Self.end(ofStringAt: cursor, in: bytes, checkingASCII: false)
        else { return nil }
        defer { cursor = closingQuote + 1 }
        return UnsafeBufferPointer(rebasing: bytes[(cursor + 1)..<closingQuote])
    }

    /// How a string ends, found by ``end(ofStringAt:in:)``.
    public enum StringEnd: Equatable {
        /// At the quote at `closingQuote`; whether a backslash came before it, and whether every byte is ASCII.
        case closed(closingQuote: Int, hasEscapes: Bool, isASCII: Bool)
        /// It holds a control character, at that offset, which JSON requires to be escaped.
        case controlCharacter(Int)
        /// The bytes end before it does.
        case unterminated
    }

    /// Where the string whose opening quote is at `openingQuote` in `bytes` ends, eight bytes at a time through its
    /// plain stretches: the one search both the scanner and the parser make. The byte after a backslash is stepped
    /// over unread, left to whoever decodes the escapes (``JSONEscape``). Whether the string is ASCII is found only
    /// when `checkingASCII` (else it is said to be): the scanner, which checks a line's UTF-8 whole, does not ask.
    @inlinable public static func end(
        ofStringAt openingQuote: Int, in bytes: UnsafeBufferPointer<UInt8>, checkingASCII: Bool = true
    ) -> StringEnd {
        var index = openingQuote + 1
        var hasEscapes = false
        var isASCII = true
        while index < bytes.count {
            if index + 8 <= bytes.count {
                let (found, high) = quotesEscapesAndControls(at: index, in: bytes)
                guard found != 0 else {
                    if checkingASCII { isASCII = isASCII && high == 0 }
                    index += 8
                    continue
                }
                let plain = found.trailingZeroBitCount / 8  // no byte before the first found is one
                if checkingASCII { isASCII = isASCII && high & ((1 << (8 * plain)) &- 1) == 0 }
                index += plain
            }
            let byte = bytes[index]
            switch byte {
            case .quote: return .closed(closingQuote: index, hasEscapes: hasEscapes, isASCII: isASCII)
            case .backslash:
                hasEscapes = true
                index += 2
            case 0..<0x20: return .controlCharacter(index)
            default:
                if checkingASCII { isASCII = isASCII && byte < 0x80 }
                index += 1
            }
        }
        return .unterminated
    }

    /// Steps over the object or array at the cursor. Strings inside are found with `memchr`, not checked byte by
    /// byte: this is where a scan spends its time, in the breadcrumbs.
    @usableFromInline mutating func skipContainer() -> Bool {
        var nesting = Nesting()
        while cursor < bytes.count {
            let byte = bytes[cursor]
            switch byte {
            case .quote:
                guard skipString() else { return false }
                continue
            case .openBrace, .openBracket: nesting.open(isObject: byte == .openBrace)
            case .closeBrace, .closeBracket:
                guard nesting.close(isObject: byte == .closeBrace) else { return false }
                if nesting.isEmpty {
                    cursor += 1
                    return true
                }
            default: break
            }
            cursor += 1
        }
        return false
    }

    /// Steps over the string at the cursor: to the first quote that an even number of backslashes precedes.
    @usableFromInline mutating func skipString() -> Bool {
        var from = cursor + 1
        while let quote = nextQuote(from: from) {
            var backslashes = 0
            while bytes[quote - 1 - backslashes] == .backslash { backslashes += 1 }
            if backslashes % 2 == 0 {
                cursor = quote + 1
                return true
            }
            from = quote + 1
        }
        return false
    }

    /// The eight bytes at `index`: `found`, with the high bit of each byte that is a `"`, a `\\` or a control
    /// character set, and possibly of bytes after the first of them (a borrow runs on past it), zero when they hold
    /// none, so that a string's plain stretches are stepped over eight bytes at a time and the lowest bit set is
    /// exactly the first; and `high`, the high bits of the bytes themselves, set where a byte is not ASCII.
    @usableFromInline static func quotesEscapesAndControls(
        at index: Int, in bytes: UnsafeBufferPointer<UInt8>
    ) -> (found: UInt64, high: UInt64) {
        guard let base = bytes.baseAddress else { return (0, 0) }
        let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quotes = word ^ (ones &* UInt64(UInt8.quote))
        let backslashes = word ^ (ones &* UInt64(UInt8.backslash))
        let zeroQuote = (quotes &- ones) & ~quotes
        let zeroBackslash = (backslashes &- ones) & ~backslashes
        let control = (word &- ones &* 0x20) & ~word  // a byte below 0x20
        return ((zeroQuote | zeroBackslash | control) & highs, word & highs)
    }

    /// The index of the first `"` at or after `index`, eight bytes at a time: most strings in an event are short,
    /// where a call to `memchr` costs more than the search.
    @usableFromInline func nextQuote(from index: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        var index = index
        while index + 8 <= bytes.count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            let quotes = word ^ 0x2222_2222_2222_2222  // a quote becomes a zero byte
            let zeros = (quotes &- 0x0101_0101_0101_0101) & ~quotes & 0x8080_8080_8080_8080
            if zeros != 0 { return index + zeros.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < bytes.count {
            if bytes[index] == .quote { return index }
            index += 1
        }
        return nil
    }

    /// The brackets open while skipping, innermost last: a bit per level for the first 64, an array beyond.
    @usableFromInline struct Nesting {
        @usableFromInline var isObjectBits: UInt64 = 0
        @usableFromInline var deeper: [Bool] = []
        @usableFromInline var depth = 0

        @inlinable init() {}

        @inlinable var isEmpty: Bool { depth == 0 }

        @inlinable mutating func open(isObject: Bool) {
            if depth < 64 {
                isObjectBits = isObject ? isObjectBits | 1 << depth : isObjectBits & ~(1 << depth)
            } else {
                deeper.append(isObject)
            }
            depth += 1
        }

        /// Closes the innermost level; `false` when nothing is open or it is of the other kind.
        @inlinable mutating func close(isObject: Bool) -> Bool {
            guard depth > 0 else { return false }
            depth -= 1
            let wasObject = depth < 64 ? isObjectBits & 1 << depth != 0 : deeper.removeLast()
            return wasObject == isObject
        }
    }

    @usableFromInline static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
            UInt8(ascii: "e"), UInt8(ascii: "E"):
            true
        default: false
        }
    }
}

extension UInt8 {
    @usableFromInline static let quote = UInt8(ascii: "\"")
    @usableFromInline static let backslash = UInt8(ascii: "\\")
    @usableFromInline static let openBrace = UInt8(ascii: "{")
    @usableFromInline static let closeBrace = UInt8(ascii: "}")
    @usableFromInline static let openBracket = UInt8(ascii: "[")
    @usableFromInline static let closeBracket = UInt8(ascii: "]")
    @usableFromInline static let colon = UInt8(ascii: ":")
    @usableFromInline static let comma = UInt8(ascii: ",")
    @usableFromInline static let space = UInt8(ascii: " ")
    @usableFromInline static let tab = UInt8(ascii: "\t")
    @usableFromInline static let newline = UInt8(ascii: "\n")
    @usableFromInline static let carriageReturn = UInt8(ascii: "\r")
}
