import Testing

@testable import FaultlineRecords

/// A string's escapes are decoded in one place for both readers: the scanner of logged records, which replaces a lone
/// surrogate rather than lose a line, and the strict parser, which refuses it where it is.
@Suite struct JSONEscapeTests {
    @Test(arguments: [
        (#"a\"b"#, "a\"b"), (#"\\"#, "\\"), (#"\/"#, "/"), (#"\b\f\n\r\t"#, "\u{08}\u{0C}\n\r\t"),
        (#"\u00e9t\u00E9"#, "été"), (#"\ud83d\ude00"#, "😀"), ("plain", "plain"), (#"\u0000"#, "\u{0}"),
    ])
    func everyEscapeDecodesToItsCharacter(raw: String, text: String) {
        #expect(Self.unescaped(raw, .rejected) == text)
        #expect(Self.unescaped(raw, .replaced) == text)
    }

    @Test func aLoneSurrogateIsReplacedForTheScannerAndRefusedForTheParser() {
        #expect(Self.unescaped(#"a\ud83db"#, .replaced) == "a\u{FFFD}b")
        #expect(Self.unescaped(#"\ude00"#, .replaced) == "\u{FFFD}")
        #expect(Self.unescaped(#"\ud83d\u0041"#, .replaced) == "\u{FFFD}A")
        #expect(Self.failure(#"a\ud83db"#) == .unpairedHighSurrogate)
        #expect(Self.failure(#"\ude00"#) == .unpairedLowSurrogate)
        #expect(Self.failure(#"\ud83d\u0041"#) == .unpairedHighSurrogate)
    }

    @Test func aMalformedEscapeFailsWhereItIs() {
        #expect(Self.failure(#"\x"#) == .notAnEscape)
        #expect(Self.failure(#"\u12"#) == .notFourHexDigits)
        #expect(Self.failure(#"\u12g4"#) == .notFourHexDigits)
        #expect(Self.failure(#"\ud83d\u12"#) == .notFourHexDigits)
        #expect(Self.failure(#"\"#) == .truncated)
        #expect(Self.unescaped(#"\x"#, .replaced) == nil)
    }

    @Test func theIndexStopsWhereTheFailureIsFound() {
        let bytes = Array(#"\u12g4"#.utf8)
        var index = 0
        var utf8: [UInt8] = []
        let failure = bytes.withUnsafeBufferPointer {
            JSONEscape.decode($0, at: &index, into: &utf8, loneSurrogates: .rejected)
        }
        #expect(failure == .notFourHexDigits)
        #expect(index == 4)
    }

    private static func unescaped(_ raw: String, _ loneSurrogates: JSONEscape.LoneSurrogates) -> String? {
        Array(raw.utf8).withUnsafeBufferPointer { JSONEscape.unescaped($0, loneSurrogates: loneSurrogates) }
    }

    private static func failure(_ raw: String) -> JSONEscape.Failure? {
        let bytes = Array(raw.utf8)
        var index = bytes.firstIndex(of: UInt8(ascii: "\\"))!
        var utf8: [UInt8] = []
        return bytes.withUnsafeBufferPointer { buffer in
            while index < buffer.count {
                guard buffer[index] == UInt8(ascii: "\\") else {
                    index += 1
                    continue
                }
                if let failure = JSONEscape.decode(buffer, at: &index, into: &utf8, loneSurrogates: .rejected) {
                    return failure
                }
            }
            return nil
        }
    }
}
