import Foundation

extension Envelope {
    /// Why bytes could not be read as an envelope.
    package struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        /// What is wrong, and where.
        package let reason: String

        package init(reason: String) {
            self.reason = reason
        }

        package var description: String { "The envelope could not be read: \(reason)." }
    }

    /// Reads an envelope as Sentry's grammar defines it (`Headers { "\n" Item } [ "\n" ]`): items with a `length`
    /// take exactly that many payload bytes; items without one run to the next newline.
    ///
    /// Item header fields other than `type` and `length` (such as `content_type` or `filename`) are kept in
    /// ``Item/headers``, so that an envelope is written back as it was read.
    package init(parsing data: Data) throws(ParseError) {
        var reader = LineReader(data)
        guard let headerLine = reader.line(), !headerLine.isEmpty else {
            throw ParseError(reason: "it has no header line")
        }
        let header = try Self.object(headerLine, what: "the envelope header")
        var items: [Item] = []
        while let itemHeaderLine = reader.line() {
            if itemHeaderLine.isEmpty {
                if reader.isAtEnd { break }
                continue
            }
            var itemHeader = try Self.object(itemHeaderLine, what: "the header of item \(items.count + 1)")
            guard case .string(let type)? = itemHeader["type"] else {
                throw ParseError(reason: "item \(items.count + 1) has no type")
            }
            let payload: Data
            switch itemHeader["length"] {
            case .int(let length)?:
                guard length >= 0, let bytes = reader.bytes(length) else {
                    throw ParseError(
                        reason: "item \(items.count + 1) states \(length) bytes, but the envelope is shorter")
                }
                payload = bytes
                reader.skipNewline()
            case nil, .null?:
                payload = reader.line() ?? Data()
            default:
                throw ParseError(reason: "item \(items.count + 1) has a length that is not an integer")
            }
            itemHeader["type"] = nil
            itemHeader["length"] = nil
            items.append(Item(type: type, payload: payload, headers: itemHeader))
        }
        self.init(header: header, items: items)
    }

    private static func object(_ line: Data, what: String) throws(ParseError) -> [String: JSONValue] {
        guard let value = try? JSONValue(parsing: line), case .object(let object) = value
        else {
            throw ParseError(reason: "\(what) is not a JSON object")
        }
        return object
    }
}

/// Reads lines and counted byte runs off envelope data.
private struct LineReader {
    private let data: Data
    private var position: Data.Index

    init(_ data: Data) {
        self.data = data
        self.position = data.startIndex
    }

    var isAtEnd: Bool { position >= data.endIndex }

    /// The bytes up to the next newline (not included), or to the end; `nil` at the end.
    mutating func line() -> Data? {
        guard !isAtEnd else { return nil }
        let end = data[position...].firstIndex(of: 0x0A) ?? data.endIndex
        defer { position = min(end + 1, data.endIndex) }
        return data[position..<end]
    }

    /// The next `count` bytes, or `nil` when fewer remain.
    mutating func bytes(_ count: Int) -> Data? {
        guard data.endIndex - position >= count else { return nil }
        defer { position += count }
        return data[position..<position + count]
    }

    /// Skips the newline that ends a payload, when there is one.
    mutating func skipNewline() {
        if !isAtEnd, data[position] == 0x0A { position += 1 }
    }
}
