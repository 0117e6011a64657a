import Foundation
import Testing

@testable import FaultlineRecords

/// The byte-level JSON parser the pipeline reads bodies and envelope headers with, checked against `JSONDecoder` and
/// against the RFC's grammar.
@Suite struct JSONValueParsingTests {
    static let documents = [
        #"{"success": false, "error": {"code": 40901, "message": "Boleto already issued"}}"#,
        #"[1, -2, 3.25, -0.5, true, false, null, "", [], {}]"#,
        #"{"nested": {"deeper": [{"a": [[[]]]}, {"b": {"c": null}}]}}"#,
        #""escapes: \" \\ \/ \b \f \n \r \t \u00e9 \u4e2d \ud83d\ude00 end""#,
        #"{"raw": "café 中文 😀", "key with \"quotes\"": 1}"#,
        " \t\r\n {\"spaced\" : [ 1 , 2 ] } \n",
        "9223372036854775807",
        "-9223372036854775808",
        #""""#,
        "0",
    ]

    @Test(arguments: documents)
    func parsesWhatJSONDecoderParsesToTheSameValue(_ document: String) throws {
        let data = Data(document.utf8)
        #expect(try JSONValue(parsing: data) == JSONDecoder().decode(JSONValue.self, from: data))
    }

    @Test func integersStayIntegersAndEveryOtherNumberIsADouble() throws {
        #expect(
            try JSONValue(parsing: Data("[1, 1.0, 1e3, 2E-2, -0, 12345678901234567890]".utf8)) == [
                .int(1), .double(1), .double(1000), .double(0.02), .int(0), .double(Double("12345678901234567890")!),
            ])
    }

    @Test func theLastOfARepeatedKeyWinsAndASliceParsesAlone() throws {
        #expect(try JSONValue(parsing: Data(#"{"a": 1, "a": 2}"#.utf8)) == ["a": 2])
        let line = Data("header\n{\"event_id\":\"42\"}\n".utf8)
        let slice = line[line.firstIndex(of: 0x0A)! + 1..<line.count - 1]
        #expect(try JSONValue(parsing: slice) == ["event_id": "42"])
    }

    @Test(arguments: [
        ("", 0, "the text ends where a value was expected"),
        (#"{"a": 1"#, 7, "expected ',' or '}' in an object"),
        ("{} x", 3, "unexpected 'x' after the value"),
        ("{'a': 1}", 1, "an object key must be a string"),
        ("[1,]", 3, "unexpected ']' where a value was expected"),
        ("01", 1, "a number has a leading zero"),
        ("1.", 2, "a decimal point is not followed by digits"),
        ("1e", 2, "an exponent has no digits"),
        ("1e999", 0, "the number 1e999 is out of range"),
        ("\"a\u{1}b\"", 2, "a control character must be escaped in a string"),
        (#""\x""#, 2, "\\'x' is not an escape"),
        (#""\ud83d""#, 7, "a high surrogate escape is not followed by a low one"),
        (#""\ude00""#, 7, "an unpaired low surrogate escape"),
        (#""\u12""#, 3, "a \\u escape needs four hex digits"),
        (#""open"#, 5, "a string is not closed"),
        ("nul", 0, "expected null"),
        ("<html><body>502 Bad Gateway</body></html>", 0, "unexpected '<' where a value was expected"),
    ])
    func malformedTextIsRefusedWithWhereAndWhy(_ text: String, offset: Int, reason: String) {
        let error = #expect(throws: JSONValue.ParseError.self) {
            try JSONValue(parsing: Data(text.utf8))
        }
        #expect(error?.reason == reason)
        #expect(error?.offset == offset)
    }

    @Test func invalidUTF8InAStringIsRefused() {
        let bytes: [UInt8] = [0x22, 0x61, 0xFF, 0xFE, 0x22]
        let error = #expect(throws: JSONValue.ParseError.self) {
            try JSONValue(parsing: bytes)
        }
        #expect(error?.reason == "a string is not valid UTF-8")
        #expect(error?.offset == 1)
    }

    @Test func nestingPastTheLimitIsRefusedWithoutExhaustingTheStack() throws {
        let limit = JSONValue.maximumDepth
        let atLimit = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(try JSONValue(parsing: Data(atLimit.utf8)) != .null)
        let deep = Data(String(repeating: "[", count: 100_000).utf8)
        let error = #expect(throws: JSONValue.ParseError.self) {
            try JSONValue(parsing: deep)
        }
        #expect(error?.reason == "nested deeper than \(limit) arrays and objects")
        #expect(error?.offset == limit)
    }

    @Test(arguments: documents)
    func membersReadsTheNamedMembersOfAnObjectAsTheFullParseDoes(_ document: String) throws {
        let object = Data(#"{"event_id": "42", "skipped": \#(document), "timestamp": \#(document), "n": [1]}"#.utf8)
        guard case .object(let parsed) = try JSONValue(parsing: object) else {
            Issue.record("not an object")
            return
        }

        let members = try #require(try JSONValue.members(["event_id", "timestamp"], ofObjectParsing: object))

        #expect(members == ["event_id": parsed["event_id"], "timestamp": parsed["timestamp"]])
    }

    @Test func membersRefusesWhatTheFullParseRefusesWhereItRefusesIt() {
        let skippedValues = [
            #"{"a": 1"#, "{'a': 1}", "[1,]", "01", "1.", "1e", "1e999", "\"a\u{1}b\"", #""\x""#, #""\ud83d""#,
            #""\ude00""#, #""\u12""#, "nul", "<html>", String(repeating: "[", count: 100_000),
        ]
        var texts = skippedValues.map { #"{"event_id": "42", "skipped": \#($0)}"# }.map { Array($0.utf8) }
        texts.append([0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0x61, 0xFF, 0xFE, 0x22, 0x7D])  // {"a":"a<FF FE>"}
        texts.append(Array(#"{"event_id": "42"} x"#.utf8))
        for text in texts {
            let full = #expect(throws: JSONValue.ParseError.self) { try JSONValue(parsing: text) }
            let members = #expect(throws: JSONValue.ParseError.self) {
                try JSONValue.members(["event_id"], ofObjectParsing: text)
            }
            #expect(members == full, "\(String(decoding: text.prefix(60), as: UTF8.self))")
        }
    }

    @Test func membersOfAnythingButAnObjectIsNil() throws {
        for document in ["[1, 2]", #""text""#, "12", "null"] {
            #expect(try JSONValue.members(["a"], ofObjectParsing: Data(document.utf8)) == nil)
        }
    }

    @Test(arguments: documents)
    func anObjectTextLocatesTheNamedMembersAsTheFullParseReadsThem(_ document: String) throws {
        // Given an object whose named members hold each document, one of them twice
        let object = Data(
            #"{"event_id": "42", "skipped": \#(document), "timestamp": \#(document), "n": [1], "event_id": "43"}"#
                .utf8)
        guard case .object(let parsed) = try JSONValue(parsing: object) else {
            Issue.record("not an object")
            return
        }

        // When it is read in one pass, without a rewrite
        let text = try #require(try JSONValue.object(parsing: object, members: ["event_id", "timestamp"]))

        // Then the text is the one read, each named member is located each time, and its value is the full parse's
        #expect(text.bytes == object)
        #expect(text.members.map(\.name) == ["event_id", "timestamp", "event_id"])
        #expect(text.value(of: "event_id") == parsed["event_id"])
        #expect(text.value(of: "timestamp") == parsed["timestamp"])
        #expect(text.value(of: "skipped") == nil)
        #expect(text.hasLineBreak == document.contains { $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
        #expect(!text.hasEscapedKey)
    }

    @Test func anObjectTextRefusesWhatTheFullParseRefusesWhereItRefusesIt() {
        let skippedValues = [
            #"{"a": 1"#, "{'a': 1}", "[1,]", "01", "1.", "1e", "1e999", "\"a\u{1}b\"", #""\x""#, #""\ud83d""#,
            #""\ude00""#, #""\u12""#, "nul", "<html>", String(repeating: "[", count: 100_000),
        ]
        var texts = skippedValues.map { #"{"event_id": "42", "skipped": \#($0)}"# }.map { Data($0.utf8) }
        texts.append(Data([0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0x61, 0xFF, 0xFE, 0x22, 0x7D]))  // {"a":"a<FF FE>"}
        texts.append(Data(#"{"event_id": "42"} x"#.utf8))
        texts.append(Data(#"[1, "#.utf8))
        for text in texts {
            let full = #expect(throws: JSONValue.ParseError.self) { try JSONValue(parsing: text) }
            let read = #expect(throws: JSONValue.ParseError.self) {
                try JSONValue.object(parsing: text, members: ["event_id"])
            }
            #expect(read == full, "\(String(decoding: text.prefix(60), as: UTF8.self))")
        }
    }

    @Test func anObjectTextOfAnythingButAnObjectIsNil() throws {
        for document in ["[1, 2]", #""text""#, "12", "null"] {
            #expect(try JSONValue.object(parsing: Data(document.utf8), members: ["a"]) == nil)
        }
    }

    @Test func anObjectTextWritesItsRewritesAndLocatesTheMembersInTheTextWritten() throws {
        // Given an object whose string values (never its keys) a rewrite upper-cases when they start with "x", and
        // whose values under a member named "hide", or the second of a pair named so, it writes as "-"
        let object = Data(
            #"{"xa": "xb", "tags": {"x": ["xc", 1, "d"]}, "xe": "f", "m\u0061": "xg", "h\u0069de": {"a": [1]}, "p": [["hide", 2], ["hide", 3, 4]]}"#
                .utf8)
        let hidden: JSONRewrite.Place = 1
        let rewrite = JSONRewrite(
            root: 0, member: { key, _ in String(decoding: key, as: UTF8.self) == "hide" ? hidden : 0 },
            element: { pairKey, _ in pairKey.map { String(decoding: $0, as: UTF8.self) } == "hide" ? hidden : 0 },
            container: { place, _ in place == hidden ? Array(#""-""#.utf8) : nil },
            scalar: { quoted, kind, place in
                if place == hidden { return Array(#""-""#.utf8) }
                guard case .string = kind, quoted.dropFirst().first == UInt8(ascii: "x") else { return nil }
                return Array(String(decoding: quoted, as: UTF8.self).uppercased().utf8)
            })

        // When it is read with the rewrite
        let text = try #require(
            try JSONValue.object(parsing: object, members: ["tags", "xe", "p"], rewriting: rewrite))

        // Then the text has the rewrites in place, and the members' values are found where they now are
        #expect(
            String(decoding: text.bytes, as: UTF8.self)
                == #"{"xa": "XB", "tags": {"x": ["XC", 1, "d"]}, "xe": "f", "m\u0061": "XG", "h\u0069de": "-", "p": [["hide", "-"], ["hide", 3, 4]]}"#
        )
        #expect(text.value(of: "tags") == ["x": ["XC", 1, "d"]])
        #expect(text.value(of: "xe") == "f")
        #expect(text.value(of: "p") == [["hide", "-"], ["hide", 3, 4]])
        #expect(text.hasEscapedKey)

        // And a rewrite that is no JSON scalar is refused where the value was
        let broken = JSONRewrite(
            root: 0, member: { _, _ in 0 }, element: { _, _ in 0 }, container: { _, _ in nil },
            scalar: { _, _, _ in Array(#""a"b""#.utf8) })
        let refused = #expect(throws: JSONValue.ParseError.self) {
            try JSONValue.object(parsing: object, members: [], rewriting: broken)
        }
        #expect(refused?.offset == 7)
    }
}
