import FaultlineRecords
import Foundation
import Testing

/// Reading envelopes back, as the outbox and an ingest do.
@Suite struct EnvelopeParsingTests {
    @Test func aSerializedEnvelopeReadsBackByteForByte() throws {
        let payload = Data(#"{"message":"line\nbreak ✓"}"#.utf8)
        let envelope = Envelope(
            header: ["event_id": "0123456789abcdef0123456789abcdef"],
            items: [.init(type: "event", payload: payload), .init(type: "client_report", payload: Data("{}".utf8))])

        let parsed = try Envelope(parsing: envelope.serialized())

        #expect(parsed.header == envelope.header)
        #expect(parsed.items.map(\.type) == ["event", "client_report"])
        #expect(parsed.items.map(\.payload) == [payload, Data("{}".utf8)])
    }

    @Test func itemsWithoutALengthRunToTheNextNewline() throws {
        let text = "{}\n{\"type\":\"event\"}\n{\"message\":\"a\"}\n{\"type\":\"attachment\",\"length\":2}\nhi"
        let parsed = try Envelope(parsing: Data(text.utf8))
        #expect(parsed.items.map(\.type) == ["event", "attachment"])
        #expect(parsed.items.map { String(decoding: $0.payload, as: UTF8.self) } == [#"{"message":"a"}"#, "hi"])
    }

    @Test func truncatedOrMalformedEnvelopesSayWhatIsWrong() {
        #expect(throws: Envelope.ParseError(reason: "it has no header line")) { try Envelope(parsing: Data()) }
        #expect(throws: Envelope.ParseError(reason: "the envelope header is not a JSON object")) {
            try Envelope(parsing: Data("<html>\n".utf8))
        }
        #expect(
            throws: Envelope.ParseError(reason: "item 1 states 50 bytes, but the envelope is shorter")
        ) {
            try Envelope(parsing: Data("{}\n{\"type\":\"event\",\"length\":50}\n{}\n".utf8))
        }
        #expect(throws: Envelope.ParseError(reason: "item 1 has no type")) {
            try Envelope(parsing: Data("{}\n{\"length\":2}\n{}\n".utf8))
        }
    }
}
