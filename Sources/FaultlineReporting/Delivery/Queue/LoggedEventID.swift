import Foundation

/// Reads the top-level `event_id` of a logged event without parsing the rest: the envelope that carries a line of the
/// log must name its event in the header.
enum LoggedEventID {
    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")
    private static let key = Array(#""event_id""#.utf8)

    /// The string value of the `event_id` member of the object `line` holds, when it has one at its top level; a
    /// member of the same name inside a nested object (a breadcrumb's data) is skipped.
    static func read(from line: Data) -> String? {
        line.withUnsafeBytes { buffer in
            let bytes = buffer.bindMemory(to: UInt8.self)
            var depth = 0
            var index = 0
            while index < bytes.count {
                switch bytes[index] {
                case quote:
                    let end = endOfString(in: bytes, from: index)
                    if depth == 1, matchesKey(bytes, from: index, to: end) {
                        return stringValue(in: bytes, after: end)
                    }
                    index = end
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
                default: break
                }
                index += 1
            }
            return nil
        }
    }

    /// The index of the quote that ends the string whose opening quote is at `start` (or the last index).
    private static func endOfString(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start + 1
        while index < bytes.count {
            if bytes[index] == backslash {
                index += 2
                continue
            }
            if bytes[index] == quote { return index }
            index += 1
        }
        return bytes.count - 1
    }

    private static func matchesKey(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Bool {
        end - start + 1 == key.count && bytes[start...end].elementsEqual(key)
            && end + 1 < bytes.count && bytes[end + 1] == UInt8(ascii: ":")
    }

    /// The string after the `:` that follows the key ending at `keyEnd`; `nil` when the value is not a plain string.
    private static func stringValue(in bytes: UnsafeBufferPointer<UInt8>, after keyEnd: Int) -> String? {
        let start = keyEnd + 2
        guard start < bytes.count, bytes[start] == quote else { return nil }
        let end = endOfString(in: bytes, from: start)
        guard end > start, bytes[end] == quote, !bytes[start + 1..<end].contains(backslash) else { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start + 1..<end]), as: UTF8.self)
    }
}
