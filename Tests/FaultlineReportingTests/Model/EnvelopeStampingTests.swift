import Faultline
import FaultlineRecords
import Foundation
import Testing

@testable import FaultlineReporting

/// What the uploader sends of a stored envelope: its bytes with `sent_at` added to the header and a client report
/// appended, without the payloads being parsed again.
@Suite struct EnvelopeStampingTests {
    static let sentAt = Date(timeIntervalSince1970: 1_763_900_000.25)

    @Test func aStoredEnvelopeGetsSentAtAndAnAppendedItemAndParsesBackWhole() throws {
        let dsn = try DSN("http://0123456789abcdef0123456789abcdef@127.0.0.1:9000/42")
        let stored = try DeliveryFixtures.envelope("만료된 토큰입니다.", dsn: dsn)
        let report = Envelope.Item(type: "client_report", payload: Data(#"{"discarded_events":[]}"#.utf8))

        let stamped = try Envelope.stamping(stored.serialized(), sentAt: Self.sentAt, appending: [report])

        let parsed = try Envelope(parsing: stamped)
        var expectedHeader = stored.header
        expectedHeader["sent_at"] = .string(RFC3339.string(from: Self.sentAt))
        #expect(parsed.header == expectedHeader)
        #expect(parsed.items.map(\.type) == ["event", "client_report"])
        #expect(parsed.items.map(\.payload) == [stored.items[0].payload, report.payload])
        #expect(stamped.last == 0x0A)
    }

    @Test func anEmptyHeaderGetsSentAtAlone() throws {
        let stored = Envelope(header: [:], items: [Envelope.Item(type: "client_report", payload: Data("{}".utf8))])

        let stamped = try Envelope.stamping(stored.serialized(), sentAt: Self.sentAt)

        let firstLine = String(decoding: stamped.prefix { $0 != 0x0A }, as: UTF8.self)
        #expect(firstLine == #"{"sent_at":"\#(RFC3339.string(from: Self.sentAt))"}"#)
        #expect(try Envelope(parsing: stamped).items.map(\.type) == ["client_report"])
    }

    @Test func bytesThatDoNotStartWithAHeaderObjectAreRefused() {
        for bytes in [Data(), Data("no newline".utf8), Data("[1]\n{}\n".utf8)] {
            #expect(throws: Envelope.ParseError.self) { try Envelope.stamping(bytes, sentAt: Self.sentAt) }
        }
    }
}
