import FaultlineRecords
import Testing

/// The end of a string, which both the scanner and the parser find with one search that steps over plain stretches
/// eight bytes at a time, is where a byte-by-byte reading finds it, wherever the quote, escape, control character or
/// non-ASCII byte falls in a word.
@Suite struct JSONStringEndTests {
    @Test func everyPlacementInAWordEndsWhereAByteByByteReadingEnds() {
        let specials: [[UInt8]] = [
            [UInt8(ascii: "\"")], [UInt8(ascii: "\\"), UInt8(ascii: "\"")], [UInt8(ascii: "\\"), UInt8(ascii: "n")],
            [0x01], [0x1F], [0xC3, 0xA9], [0xF0, 0x9F, 0x98, 0x80], [0x7F], [0x20],
        ]
        for length in 0..<20 {
            for position in 0...length {
                for special in specials {
                    for tail in [[], [UInt8(ascii: "\"")], Array("abcdefghij\"".utf8)] {
                        var bytes = [UInt8(ascii: "\"")] + Array(repeating: UInt8(ascii: "a"), count: length)
                        bytes.insert(contentsOf: special, at: 1 + position)
                        bytes += tail
                        let found = bytes.withUnsafeBufferPointer { JSONScanner.end(ofStringAt: 0, in: $0) }
                        #expect(found == Self.byteByByte(bytes), "\(bytes)")
                    }
                }
            }
        }
    }

    @Test func theOpeningQuoteMayBeAnywhere() {
        let bytes = Array(#"{"key":"vålue\"s"}"#.utf8)
        let found = bytes.withUnsafeBufferPointer { JSONScanner.end(ofStringAt: 7, in: $0) }
        #expect(found == .closed(closingQuote: 17, hasEscapes: true, isASCII: false))
    }

    /// The end as a reading of one byte at a time finds it.
    private static func byteByByte(_ bytes: [UInt8]) -> JSONScanner.StringEnd {
        var index = 1
        var hasEscapes = false
        var isASCII = true
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""): return .closed(closingQuote: index, hasEscapes: hasEscapes, isASCII: isASCII)
            case UInt8(ascii: "\\"):
                hasEscapes = true
                index += 2
                continue
            case 0..<0x20: return .controlCharacter(index)
            case 0x80...: isASCII = false
            default: break
            }
            index += 1
        }
        return .unterminated
    }
}
