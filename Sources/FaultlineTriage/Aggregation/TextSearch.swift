import FaultlineLogReading
import FaultlineRecords

/// `--grep TEXT`: events whose message, title, exception type or exception value contains the text, compared
/// case-insensitively as a fixed string (not a regular expression).
package struct TextSearch: Hashable, Sendable {
    /// The text, lower-cased.
    let needle: String

    package init(_ text: String) {
        needle = text.lowercased()
    }

    func matches(_ record: EventRecord) -> Bool {
        [record.message, record.exceptionValue, record.exceptionType].contains { $0.map(contains) == true }
            || contains(record.title)
    }

    /// Whether `text` contains the needle, ignoring case: byte by byte for ASCII, as almost all text is, else by
    /// lower-casing it.
    private func contains(_ text: String) -> Bool {
        let needle = needle.utf8
        guard text.utf8.allSatisfy({ $0 < 0x80 }), needle.allSatisfy({ $0 < 0x80 }) else {
            return text.lowercased().contains(self.needle)
        }
        let bytes = text.utf8
        guard bytes.count >= needle.count else { return needle.isEmpty }
        var start = bytes.startIndex
        while bytes.distance(from: start, to: bytes.endIndex) >= needle.count {
            if zip(bytes[start...], needle).allSatisfy({ Self.lowercased($0) == $1 }) { return true }
            start = bytes.index(after: start)
        }
        return false
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
    }
}
