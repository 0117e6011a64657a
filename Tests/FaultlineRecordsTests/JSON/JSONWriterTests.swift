import Foundation
import Testing

@testable import FaultlineRecords

/// A value serve rewrites, or the CLI shows, is written by the one writer every record is written by, with the bytes
/// `JSONEncoder` writes with sorted keys and unescaped slashes: numbers included, a whole `Double` without its `.0`.
@Suite struct JSONWriterTests {
    @Test(arguments: [
        JSONValue.object([
            "timestamp": .double(1_000_000_000_000_000), "small": .double(0.1), "large": .double(1e21),
            "whole": .double(2), "negative": .double(-0.5), "tiny": .double(1e-7), "count": .int(-42),
            "url": "https://example.com/a/b?c=d", "quoted": "say \"hi\"\n\t\u{1}", "unicode": "été 😀",
            "nested": .array([.null, .bool(true), .bool(false), .object([:]), .array([])]),
            "é": 1, "a": 2, "Z": 3,
        ]),
        .array([.double(1.234_567_890_123_456_8e17), .double(-0.0), .double(.leastNonzeroMagnitude), .double(1e300)]),
        .string("/"),
    ])
    func aValueHasTheBytesJSONEncoderWrites(_ value: JSONValue) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let expected = try encoder.encode(value)
        #expect(String(decoding: value.compactJSON, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
    }

    @Test func aNumberThatIsNotFiniteIsWrittenAsNull() {
        #expect(JSONValue.array([.double(.infinity), .double(.nan)]).compactJSON == Data("[null,null]".utf8))
    }
}
