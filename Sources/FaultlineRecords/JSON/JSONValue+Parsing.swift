import Foundation

extension JSONValue {
    /// Why bytes are not one JSON text, and where.
    package struct ParseError: Error, Equatable, CustomStringConvertible {
        /// What is wrong.
        package let reason: String
        /// The offset of the byte where it was found.
        package let offset: Int

        package var description: String { "not JSON at byte \(offset): \(reason)" }
    }

    /// The most arrays and objects nested in one another that parsing accepts.
    package static let maximumDepth = 512

    /// Parses one JSON text (RFC 8259), straight from its UTF-8 bytes: several times faster than `JSONDecoder` on the
    /// small bodies and envelope headers the pipeline reads, whose cost is mostly the decoder's setup.
    ///
    /// Numbers without a fraction or exponent that fit in `Int` become ``int(_:)``, every other number ``double(_:)``.
    /// When a key repeats in an object, the last value wins.
    ///
    /// - Throws: ``ParseError`` for anything else than exactly one JSON value with optional whitespace around it:
    ///   invalid UTF-8 in a string, an unpaired surrogate escape, nesting deeper than ``maximumDepth``.
    package init(parsing data: some DataProtocol) throws(ParseError) {
        let result: Result<JSONValue, ParseError> =
            data.withContiguousStorageIfAvailable { bytes in
                Result { () throws(ParseError) in try JSONParser.parse(bytes) }
            }
            ?? Array(data).withUnsafeBufferPointer { bytes in
                Result { () throws(ParseError) in try JSONParser.parse(bytes) }
            }
        self = try result.get()
    }
}

/// The scanner's strict mode: a recursive-descent parser that reads with a ``JSONScanner``'s cursor (its whitespace,
/// literals and the search for a string's end) and checks every byte the scanner steps over unchecked: the grammar of
/// numbers, escapes, UTF-8 and the nesting depth. It builds the values it is asked for, checks the others as it steps
/// over them, and rewrites them as it reads when told to.
struct JSONParser {
    /// The cursor, whose bytes are the text read.
    private var scanner: JSONScanner
    private var bytes: UnsafeBufferPointer<UInt8> { scanner.bytes }
    private var index: Int {
        get { scanner.cursor }
        set { scanner.cursor = newValue }
    }
    private var depth = 0
    /// What rewrites the values that ``skipValue(in:)`` steps over, when the text is rewritten as it is read.
    private var rewrite: JSONRewrite?
    /// Once a value was rewritten: the text so far, up to the byte at `copied`.
    private var output: [UInt8]?
    private var copied = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        scanner = JSONScanner(bytes)
    }

    /// The one JSON value `bytes` hold.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONValue.ParseError) -> JSONValue {
        var parser = JSONParser(bytes)
        return try parser.parseDocument()
    }

    /// The members named `names` of the object `bytes` hold, the other values checked and skipped; `nil` when they
    /// hold another JSON value.
    static func members(
        _ names: Set<String>, of bytes: UnsafeBufferPointer<UInt8>
    ) throws(JSONValue.ParseError) -> [String: JSONValue]? {
        var parser = JSONParser(bytes)
        parser.scanner.skipWhitespace()
        guard parser.index < bytes.count, bytes[parser.index] == UInt8(ascii: "{") else {
            _ = try parser.parseDocument()
            return nil
        }
        var members: [String: JSONValue] = [:]
        if try parser.enter(closing: UInt8(ascii: "}")) {
            repeat {
                let key = try parser.parseKey()
                if names.contains(key) { members[key] = try parser.parseValue() } else { try parser.skipValue() }
            } while parser.scanner.take(.comma)
            try parser.leave(closing: UInt8(ascii: "}"))
        }
        try parser.expectEnd()
        return members
    }

    /// The object `bytes` hold, checked whole as ``parse(_:)`` checks it in one pass that builds no value: its values
    /// rewritten by `rewrite`, and where the values of its top-level members `names` lie in the text that results;
    /// `nil` when they hold another JSON value.
    static func object(
        _ bytes: UnsafeBufferPointer<UInt8>, members names: Set<String>, rewriting rewrite: JSONRewrite?
    ) throws(JSONValue.ParseError) -> JSONValue.ObjectText.Parts? {
        var parser = JSONParser(bytes)
        parser.rewrite = rewrite
        parser.scanner.skipWhitespace()
        guard parser.index < bytes.count, bytes[parser.index] == UInt8(ascii: "{") else {
            _ = try parser.parseDocument()
            return nil
        }
        let root = rewrite?.root ?? 0
        var members: [(name: String, value: Range<Int>)] = []
        var hasEscapedKey = false
        if try parser.enter(closing: UInt8(ascii: "}")) {
            repeat {
                try parser.expectKey()
                let keyQuote = parser.index
                let keyHasEscapes = try parser.skipString()
                hasEscapedKey = hasEscapedKey || keyHasEscapes
                let key = UnsafeBufferPointer(rebasing: bytes[(keyQuote + 1)..<(parser.index - 1)])
                let place = try parser.place(ofMemberAt: keyQuote, hasEscapes: keyHasEscapes, in: root)
                try parser.expectColon()
                parser.scanner.skipWhitespace()
                let start = parser.outputOffset(of: parser.index)
                try parser.skipValue(in: place)
                let name = String(decoding: key, as: UTF8.self)
                if !keyHasEscapes, names.contains(name) {
                    members.append((name, start..<parser.outputOffset(of: parser.index)))
                }
            } while parser.scanner.take(.comma)
            try parser.leave(closing: UInt8(ascii: "}"))
        }
        try parser.expectEnd()
        parser.output?.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[parser.copied...]))
        // A rewrite writes scalars, which hold no raw line break.
        let hasLineBreak = JSONValue.hasLineBreak(UnsafeRawBufferPointer(bytes))
        return JSONValue.ObjectText.Parts(
            rewritten: parser.output, members: members, hasLineBreak: hasLineBreak, hasEscapedKey: hasEscapedKey)
    }

    /// The JSON text `bytes` hold, checked whole as ``parse(_:)`` checks it, with its values rewritten by `rewrite`;
    /// `nil` when nothing was.
    static func rewritten(
        _ bytes: UnsafeBufferPointer<UInt8>, by rewrite: JSONRewrite
    ) throws(JSONValue.ParseError) -> [UInt8]? {
        var parser = JSONParser(bytes)
        parser.rewrite = rewrite
        try parser.skipValue(in: rewrite.root)
        try parser.expectEnd()
        parser.output?.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[parser.copied...]))
        return parser.output
    }

    /// Where the byte at `offset` of the text read is in the text written: rewritten values before it move it.
    private func outputOffset(of offset: Int) -> Int {
        (output?.count ?? 0) + offset - copied
    }

    /// The place the rewrite gives the value of the member whose key's opening quote is at `keyQuote`, in an object
    /// in `place`.
    private func place(
        ofMemberAt keyQuote: Int, hasEscapes: Bool, in place: JSONRewrite.Place
    ) throws(JSONValue.ParseError) -> JSONRewrite.Place {
        // One closure taken out of the rewrite, not the rewrite copied: a copy retains each of its closures, and this
        // runs for every key of a rewritten text.
        guard let member = rewrite?.member else { return 0 }
        guard hasEscapes else {
            return member(UnsafeBufferPointer(rebasing: bytes[(keyQuote + 1)..<(index - 1)]), place)
        }
        let key = Array(try unescapedString(at: keyQuote).utf8)
        return key.withUnsafeBufferPointer { member($0, place) }
    }

    /// The string whose opening quote is at `quote`, its escapes decoded.
    private func unescapedString(at quote: Int) throws(JSONValue.ParseError) -> String {
        var reader = JSONParser(bytes)
        reader.index = quote
        return try reader.parseString()
    }

    /// The first element's text, when the array whose first element starts at `index` is a pair: two elements, a
    /// string and a scalar (a header, a cookie, a tag). Read ahead without rewriting; what it finds wrong, the reading
    /// proper refuses. A container as the second element makes no pair, so that reading ahead never steps over more
    /// than two scalars, however deep pairs nest.
    private func pairKey() -> String? {
        var ahead = self
        ahead.rewrite = nil
        ahead.output = nil
        let quote = ahead.index
        guard quote < bytes.count, bytes[quote] == UInt8(ascii: "\""), let hasEscapes = try? ahead.skipString() else {
            return nil
        }
        let keyEnd = ahead.index - 1
        guard ahead.scanner.take(.comma) else { return nil }
        ahead.scanner.skipWhitespace()
        guard ahead.index < bytes.count, bytes[ahead.index] != UInt8(ascii: "{"),
            bytes[ahead.index] != UInt8(ascii: "["),
            (try? ahead.skipValue(in: 0)) != nil
        else { return nil }
        guard ahead.scanner.take(.closeBracket) else { return nil }
        guard hasEscapes else {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[(quote + 1)..<keyEnd]), as: UTF8.self)
        }
        return try? unescapedString(at: quote)
    }

    /// Whether the array whose first element starts at `index` is a list of pairs: each element an array of two
    /// elements whose first is a string. Read ahead without rewriting, as ``pairKey()`` reads.
    private func isPairList() -> Bool {
        var ahead = self
        ahead.rewrite = nil
        ahead.output = nil
        repeat {
            guard ahead.scanner.take(.openBracket) else { return false }
            ahead.scanner.skipWhitespace()
            guard ahead.index < bytes.count, bytes[ahead.index] == UInt8(ascii: "\""), (try? ahead.skipString()) != nil
            else { return false }
            guard ahead.scanner.take(.comma), (try? ahead.skipValue(in: 0)) != nil else { return false }
            guard ahead.scanner.take(.closeBracket) else { return false }
        } while ahead.scanner.take(.comma)
        return true
    }

    /// Writes `replacement` instead of the value that starts at `start` and ends before `index`. A replacement is
    /// checked as one JSON scalar: a text read as valid stays valid.
    private mutating func replace(from start: Int, with replacement: [UInt8]) throws(JSONValue.ParseError) {
        let isScalar = replacement.withUnsafeBufferPointer { written in
            guard let first = written.first, first != UInt8(ascii: "{"), first != UInt8(ascii: "[") else {
                return false
            }
            return (try? JSONParser.parse(written)) != nil
        }
        guard isScalar else {
            throw JSONValue.ParseError(reason: "a rewritten value is not a JSON scalar", offset: start)
        }
        let text = bytes
        if output == nil {
            output = []
            output?.reserveCapacity(text.count + 64)
        }
        output?.append(contentsOf: UnsafeBufferPointer(rebasing: text[copied..<start]))
        output?.append(contentsOf: replacement)
        copied = index
    }

    private mutating func parseDocument() throws(JSONValue.ParseError) -> JSONValue {
        let value = try parseValue()
        try expectEnd()
        return value
    }

    /// Checks that nothing but whitespace follows the document's value.
    private mutating func expectEnd() throws(JSONValue.ParseError) {
        scanner.skipWhitespace()
        guard index == bytes.count else { throw error("unexpected \(describe(bytes[index])) after the value") }
    }

    private mutating func parseValue() throws(JSONValue.ParseError) -> JSONValue {
        scanner.skipWhitespace()
        guard index < bytes.count else { throw error("the text ends where a value was expected") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        case let byte: throw error("unexpected \(describe(byte)) where a value was expected")
        }
    }

    private mutating func parseObject() throws(JSONValue.ParseError) -> JSONValue {
        var object: [String: JSONValue] = [:]
        guard try enter(closing: UInt8(ascii: "}")) else { return .object(object) }
        repeat {
            let key = try parseKey()
            object[key] = try parseValue()
        } while scanner.take(.comma)
        try leave(closing: UInt8(ascii: "}"))
        return .object(object)
    }

    private mutating func parseArray() throws(JSONValue.ParseError) -> JSONValue {
        var array: [JSONValue] = []
        guard try enter(closing: UInt8(ascii: "]")) else { return .array(array) }
        repeat {
            array.append(try parseValue())
        } while scanner.take(.comma)
        try leave(closing: UInt8(ascii: "]"))
        return .array(array)
    }

    /// The key at `index` (after whitespace) and the `:` after it.
    private mutating func parseKey() throws(JSONValue.ParseError) -> String {
        try expectKey()
        let key = try parseString()
        try expectColon()
        return key
    }

    private mutating func expectKey() throws(JSONValue.ParseError) {
        scanner.skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
            throw error("an object key must be a string")
        }
    }

    private mutating func expectColon() throws(JSONValue.ParseError) {
        guard scanner.take(.colon) else { throw error("expected ':' after an object key") }
    }

    /// Steps over the `}` or `]` that closes a container, counting the depth.
    private mutating func leave(closing: UInt8) throws(JSONValue.ParseError) {
        guard scanner.take(closing) else {
            throw error(
                closing == UInt8(ascii: "}") ? "expected ',' or '}' in an object" : "expected ',' or ']' in an array")
        }
        depth -= 1
    }

    /// Checks the value at `index` as ``parseValue()`` does and steps over it, building nothing but the text of a
    /// number (short strings need no allocation) and a string that is not ASCII, to check its UTF-8; with a rewrite,
    /// writes the value, the rewrite told it is in `place`, as the rewrite says.
    private mutating func skipValue(in place: JSONRewrite.Place = 0) throws(JSONValue.ParseError) {
        scanner.skipWhitespace()
        guard index < bytes.count else { throw error("the text ends where a value was expected") }
        let start = index
        switch bytes[index] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            if let replacement = rewrite?.container(place, bytes[index] == UInt8(ascii: "{")) {
                let rewrite = rewrite
                self.rewrite = nil
                defer { self.rewrite = rewrite }
                try skipContainer(in: 0)
                try replace(from: start, with: replacement)
            } else {
                try skipContainer(in: place)
            }
        case UInt8(ascii: "\""):
            let hasEscapes = try skipString()
            if let scalar = rewrite?.scalar,
                let replacement = scalar(
                    UnsafeBufferPointer(rebasing: bytes[start..<index]), .string(hasEscapes: hasEscapes), place)
            {
                try replace(from: start, with: replacement)
            }
        default:
            _ = try parseValue()
            if let scalar = rewrite?.scalar,
                let replacement = scalar(UnsafeBufferPointer(rebasing: bytes[start..<index]), .other, place)
            {
                try replace(from: start, with: replacement)
            }
        }
    }

    /// ``skipValue(in:)`` for the object or array at `index`.
    private mutating func skipContainer(in place: JSONRewrite.Place) throws(JSONValue.ParseError) {
        if bytes[index] == UInt8(ascii: "{") {
            guard try enter(closing: UInt8(ascii: "}")) else { return }
            repeat {
                try expectKey()
                let keyQuote = index
                let hasEscapes = try skipString()
                let memberPlace = try self.place(ofMemberAt: keyQuote, hasEscapes: hasEscapes, in: place)
                try expectColon()
                try skipValue(in: memberPlace)
            } while scanner.take(.comma)
            try leave(closing: UInt8(ascii: "}"))
            return
        }
        guard try enter(closing: UInt8(ascii: "]")) else { return }
        guard let rewrite else {
            repeat {
                try skipValue()
            } while scanner.take(.comma)
            try leave(closing: UInt8(ascii: "]"))
            return
        }
        let pairKey = self.pairKey().map { Array($0.utf8) }
        let arrayPlace = rewrite.array.map { $0(place, isPairList()) } ?? place
        var isFirst = true
        repeat {
            let elementPlace: JSONRewrite.Place
            if !isFirst, let pairKey {
                elementPlace = pairKey.withUnsafeBufferPointer { rewrite.element($0, arrayPlace) }
            } else {
                elementPlace = rewrite.element(nil, arrayPlace)
            }
            isFirst = false
            try skipValue(in: elementPlace)
        } while scanner.take(.comma)
        try leave(closing: UInt8(ascii: "]"))
    }

    /// Checks the string whose opening quote is at `index` as ``parseString()`` does and steps over it; whether it
    /// holds escapes.
    @discardableResult
    private mutating func skipString() throws(JSONValue.ParseError) -> Bool {
        var unescaped: [UInt8] = []
        return try stepOverString(unescapingInto: &unescaped)
    }

    /// The string whose opening quote is at `index`.
    private mutating func parseString() throws(JSONValue.ParseError) -> String {
        let opening = index
        var unescaped: [UInt8] = []
        guard try stepOverString(unescapingInto: &unescaped) else {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[(opening + 1)..<(index - 1)]), as: UTF8.self)
        }
        return String(decoding: unescaped, as: UTF8.self)
    }

    /// Checks the string whose opening quote is at `index` and steps over it: its end found as the scanner finds one,
    /// its escapes decoded by ``JSONEscape`` into `unescaped` (the whole string, when it has any), its bytes checked as
    /// UTF-8. Returns whether it holds escapes. The first fault from its start is the one refused.
    private mutating func stepOverString(
        unescapingInto unescaped: inout [UInt8]
    ) throws(JSONValue.ParseError) -> Bool {
        let start = index + 1
        switch JSONScanner.end(ofStringAt: index, in: bytes) {
        case .closed(let closingQuote, let hasEscapes, let isASCII):
            if hasEscapes { try unescape(start..<closingQuote, into: &unescaped) }
            // Escapes are ASCII: the raw bytes are valid UTF-8 exactly when the string is.
            if !isASCII { _ = try validated(UnsafeBufferPointer(rebasing: bytes[start..<closingQuote]), at: start) }
            index = closingQuote + 1
            return hasEscapes
        case .controlCharacter(let offset):
            try unescape(start..<offset, into: &unescaped)
            index = offset
            throw error("a control character must be escaped in a string")
        case .unterminated:
            try unescape(start..<bytes.count, into: &unescaped)
            index = bytes.count
            throw error("a string is not closed")
        }
    }

    /// Appends the bytes in `range` to `utf8` with their escapes decoded.
    private mutating func unescape(_ range: Range<Int>, into utf8: inout [UInt8]) throws(JSONValue.ParseError) {
        var runStart = range.lowerBound
        index = range.lowerBound
        while index < range.upperBound {
            guard bytes[index] == UInt8(ascii: "\\") else {
                index += 1
                continue
            }
            utf8.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            if let failure = JSONEscape.decode(bytes, at: &index, into: &utf8, loneSurrogates: .rejected) {
                throw error(failure == .notAnEscape ? "\\\(describe(bytes[index])) is not an escape" : failure.reason)
            }
            runStart = index
        }
        utf8.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<min(index, range.upperBound)]))
    }

    /// Steps into the `{` or `[` at `index`, counting the depth; whether the container has values. An empty one is
    /// stepped over, up to its `closing` byte.
    private mutating func enter(closing: UInt8) throws(JSONValue.ParseError) -> Bool {
        depth += 1
        guard depth <= JSONValue.maximumDepth else {
            throw error("nested deeper than \(JSONValue.maximumDepth) arrays and objects")
        }
        index += 1
        guard scanner.take(closing) else { return true }
        depth -= 1
        return false
    }

    private mutating func parseNumber() throws(JSONValue.ParseError) -> JSONValue {
        let start = index
        _ = consume(UInt8(ascii: "-"))
        if consume(UInt8(ascii: "0")) {
            if index < bytes.count, isDigit(bytes[index]) { throw error("a number has a leading zero") }
        } else {
            guard skipDigits() else { throw error("a '-' is not followed by digits") }
        }
        var isInteger = true
        if consume(UInt8(ascii: ".")) {
            isInteger = false
            guard skipDigits() else { throw error("a decimal point is not followed by digits") }
        }
        if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
            isInteger = false
            _ = consume(UInt8(ascii: "+")) || consume(UInt8(ascii: "-"))
            guard skipDigits() else { throw error("an exponent has no digits") }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isInteger, let value = Int(text) { return .int(value) }
        guard let value = Double(text), value.isFinite else {
            index = start
            throw error("the number \(text) is out of range")
        }
        return .double(value)
    }

    private mutating func parseLiteral(
        _ literal: StaticString, _ value: JSONValue
    ) throws(JSONValue.ParseError) -> JSONValue {
        guard scanner.takeLiteral(literal) else { throw error("expected \(literal)") }
        return value
    }

    /// Steps over digits; whether there was at least one.
    private mutating func skipDigits() -> Bool {
        let start = index
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        return index > start
    }

    /// Steps over `byte` when it is next; whether it was.
    private mutating func consume(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// `utf8` as a string; decoding repairs invalid UTF-8, so any difference from the bytes means there was some.
    private func validated(
        _ utf8: some Collection<UInt8>, at start: Int
    ) throws(JSONValue.ParseError) -> String {
        let string = String(decoding: utf8, as: UTF8.self)
        guard string.utf8.elementsEqual(utf8) else {
            throw JSONValue.ParseError(reason: "a string is not valid UTF-8", offset: start)
        }
        return string
    }

    private func describe(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }

    private func error(_ reason: String) -> JSONValue.ParseError {
        JSONValue.ParseError(reason: reason, offset: index)
    }
}
