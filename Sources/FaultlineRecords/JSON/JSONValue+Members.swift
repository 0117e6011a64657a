import Foundation

extension JSONValue {
    /// The members named `names` of the JSON object `data` holds, after checking the whole text as
    /// ``init(parsing:)`` does, without building the other values; `nil` when the text is JSON but not an object.
    ///
    /// What an ingest reads of an event it stores as sent, where building the whole tree would cost a large part of its
    /// CPU per event.
    ///
    /// - Throws: ``ParseError`` where ``init(parsing:)`` throws one.
    package static func members(
        _ names: Set<String>, ofObjectParsing data: some DataProtocol
    ) throws(ParseError) -> [String: JSONValue]? {
        let result: Result<[String: JSONValue]?, ParseError> =
            data.withContiguousStorageIfAvailable { bytes in
                Result { () throws(ParseError) in try JSONParser.members(names, of: bytes) }
            }
            ?? Array(data).withUnsafeBufferPointer { bytes in
                Result { () throws(ParseError) in try JSONParser.members(names, of: bytes) }
            }
        return try result.get()
    }
}

extension JSONValue {
    /// Whether the valid JSON text `text` holds a line feed or a carriage return: only its whitespace can, since a
    /// string holds them escaped, so a text without one is one line as it is. Found with `memchr`, not byte by byte.
    package static func hasLineBreak(_ text: UnsafeRawBufferPointer) -> Bool {
        guard let base = text.baseAddress else { return false }
        return memchr(base, 0x0A, text.count) != nil || memchr(base, 0x0D, text.count) != nil
    }
}

extension JSONValue {
    /// The text of a JSON object read in one pass: checked whole as ``init(parsing:)`` checks it, its string values
    /// rewritten where the reader asked, and the values of some of its top-level members located, without building
    /// any value.
    ///
    /// What an ingest reads of an event it stores as sent (scrubbed), where building the whole tree, or reading the
    /// text once per question, would cost a large part of its CPU per event.
    package struct ObjectText: Sendable {
        /// The text: the bytes read, with the rewritten strings in their place.
        package let bytes: Data
        /// The named members in the order they come, each with the range of its value in ``bytes``; a name that
        /// repeats is there each time.
        package let members: [(name: String, value: Range<Int>)]
        /// Whether the text holds a line feed or a carriage return. Only whitespace can: a string holds them escaped.
        package let hasLineBreak: Bool
        /// Whether a top-level key is written with escapes: such a key is never matched to a name in ``members``.
        package let hasEscapedKey: Bool

        /// What the parser found, the text rewritten when a string was.
        struct Parts {
            let rewritten: [UInt8]?
            let members: [(name: String, value: Range<Int>)]
            let hasLineBreak: Bool
            let hasEscapedKey: Bool
        }

        /// The value of the member `name`, parsed; the last one when the name repeats, as ``init(parsing:)`` keeps
        /// it.
        package func value(of name: String) -> JSONValue? {
            guard let range = members.last(where: { $0.name == name })?.value else { return nil }
            return try? JSONValue(
                parsing: bytes[bytes.startIndex + range.lowerBound..<bytes.startIndex + range.upperBound])
        }
    }

    /// The object `data` holds, read in one pass (``ObjectText``), with the values of its top-level members `names`
    /// located; `nil` when the text is JSON but not an object.
    ///
    /// - Throws: ``ParseError`` where ``init(parsing:)`` throws one.
    package static func object(
        parsing data: Data, members names: Set<String>
    ) throws(ParseError) -> ObjectText? {
        try object(parsing: data, members: names, rewriting: nil)
    }

    /// ``object(parsing:members:)`` with the values rewritten as `rewrite` says, where it reads them. A rewrite that
    /// is not one JSON scalar is refused with a ``ParseError`` at the value it replaced.
    package static func object(
        parsing data: Data, members names: Set<String>, rewriting rewrite: JSONRewrite?
    ) throws(ParseError) -> ObjectText? {
        let result = data.withUnsafeBytes { raw in
            Result { () throws(ParseError) in
                try JSONParser.object(raw.bindMemory(to: UInt8.self), members: names, rewriting: rewrite)
            }
        }
        guard let parts = try result.get() else { return nil }
        return ObjectText(
            bytes: parts.rewritten.map { Data($0) } ?? data, members: parts.members, hasLineBreak: parts.hasLineBreak,
            hasEscapedKey: parts.hasEscapedKey)
    }

    /// The JSON text `data` holds with its values rewritten as `rewrite` says; `nil` when nothing was.
    ///
    /// - Throws: ``ParseError`` where ``init(parsing:)`` throws one.
    package static func rewritten(parsing data: Data, by rewrite: JSONRewrite) throws(ParseError) -> Data? {
        let result = data.withUnsafeBytes { raw in
            Result { () throws(ParseError) in try JSONParser.rewritten(raw.bindMemory(to: UInt8.self), by: rewrite) }
        }
        return try result.get().map { Data($0) }
    }
}
