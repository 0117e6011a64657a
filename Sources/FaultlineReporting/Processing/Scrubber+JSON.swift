import Foundation

/// Value scrubbing of an event as JSON bytes, for events that arrive from other SDKs: `faultline serve` scrubs
/// them as Sentry's Relay does, before they are stored.
extension Scrubber {
    /// `json` with every string value (not the keys) scrubbed as ``text(_:)`` scrubs text, or `nil` when nothing
    /// changed or `json` is not well-formed enough to walk. The rest of the bytes (order, spacing, numbers) is kept.
    /// A string without escapes, as most are, is scanned in place; one with escapes is decoded first.
    package func scrubbedTexts(inJSON json: Data) -> Data? {
        guard scanner.isEnabled || rules.scrubText != nil else { return nil }
        return json.withUnsafeBytes { raw -> Data? in
            let bytes = raw.bindMemory(to: UInt8.self)
            var output: [UInt8]?
            var copied = 0
            var index = 0
            while index < bytes.count {
                guard bytes[index] == UInt8(ascii: "\"") else {
                    index += 1
                    continue
                }
                guard let (end, hasEscapes) = Self.stringEnd(from: index + 1, in: bytes) else { return nil }
                defer { index = end + 1 }
                guard !Self.isKey(after: end, in: bytes),
                    let scrubbed = scrubbedString(UnsafeBufferPointer(rebasing: bytes[index...end]), hasEscapes)
                else { continue }
                if output == nil {
                    output = []
                    output?.reserveCapacity(bytes.count + 64)
                }
                output?.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<index]))
                output?.append(contentsOf: scrubbed)
                copied = end + 1
            }
            guard var output else { return nil }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
            return Data(output)
        }
    }

    /// `json` read in one pass as a JSON object (``JSONValue/ObjectText``), its string values scrubbed as
    /// ``scrubbedTexts(inJSON:)`` scrubs them and the values of its top-level members `names` located; `nil` when it
    /// is JSON but not an object. For an object, the text is the one ``scrubbedTexts(inJSON:)`` returns (or `json`
    /// when that is `nil`).
    ///
    /// - Throws: ``JSONValue/ParseError`` where ``JSONValue/init(parsing:)`` throws one for `json`.
    package func scrubbedObject(
        parsing json: Data, members names: Set<String>
    ) throws(JSONValue.ParseError) -> JSONValue.ObjectText? {
        guard scanner.isEnabled || rules.scrubText != nil else {
            return try JSONValue.object(parsing: json, members: names)
        }
        return try JSONValue.object(parsing: json, members: names) { quoted, hasEscapes in
            scrubbedString(quoted, hasEscapes)
        }
    }

    /// The JSON string `quoted` (with its quotes) scrubbed and written back as JSON, or `nil` when unchanged.
    private func scrubbedString(_ quoted: UnsafeBufferPointer<UInt8>, _ hasEscapes: Bool) -> [UInt8]? {
        let text: String
        if hasEscapes {
            guard case .string(let decoded)? = try? JSONValue(parsing: quoted) else { return nil }
            text = decoded
        } else {
            let inside = UnsafeBufferPointer(rebasing: quoted.dropFirst().dropLast())
            if rules.scrubText == nil {
                // Most strings: scanned in place. Without escapes, the replaced text needs none either.
                let secrets = scanner.secrets(in: inside)
                guard !secrets.isEmpty else { return nil }
                return [UInt8(ascii: "\"")] + ValueScanner.replacing(secrets, in: inside, with: Self.filtered)
                    + [UInt8(ascii: "\"")]
            }
            text = String(decoding: inside, as: UTF8.self)
        }
        guard let scrubbed = scrubbed(text) else { return nil }
        var writer = JSONWriter(capacity: quoted.count + 16)
        writer.string(scrubbed)
        return writer.bytes
    }

    /// The index of the quote that closes the string whose content starts at `start`, and whether it has escapes.
    private static func stringEnd(from start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (Int, Bool)? {
        var index = start
        var hasEscapes = false
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""): return (index, hasEscapes)
            case UInt8(ascii: "\\"):
                hasEscapes = true
                index += 2
            default: index += 1
            }
        }
        return nil
    }

    /// Whether the string that ends at `end` is an object's key: a `:` follows it.
    private static func isKey(after end: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = end + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): index += 1
            case UInt8(ascii: ":"): return true
            default: return false
            }
        }
        return false
    }
}
