import FaultlineLogReading
import FaultlineRecords
import FaultlineReporting
import Foundation
import Testing

@testable import FaultlineServe

/// An event item is read once for what serve stores, scrubs, dedupes and counts; one that pass refuses is refused as
/// its scrubbed text was before that pass.
@Suite struct IngestRequestTests {
    static let key = "0123456789abcdef0123456789abcdef"

    @Test(arguments: [true, false])
    func aMalformedEventIsRefusedAtTheOffsetWhereItsTextBreaks(scrubsValues: Bool) throws {
        // Given an event whose text breaks after a secret that scrubbing would shorten, which a text that is not JSON
        // does not get
        let payload = Data(#"{"message":"api_key=sk_4f9a8c7e2b4f9a8c7e2b4f9a8c7e2b","n":tru}"#.utf8)
        #expect(Scrubber().scrubbedTexts(inJSON: payload) == nil)
        let parseError = #expect(throws: JSONValue.ParseError.self) { try JSONValue(parsing: payload) }
        var configuration = IngestConfiguration(logDirectory: URL(fileURLWithPath: "/nonexistent"), publicKey: Self.key)
        configuration.scrubsValues = scrubsValues
        let body = Envelope(header: [:], items: [.init(type: "event", payload: payload)]).serialized()

        // When serve reads it
        let refusal = #expect(throws: IngestRequest.Refusal.self) {
            try IngestRequest(envelope: body, key: Self.key, acceptedKeys: [Self.key], configuration: configuration)
        }

        // Then it is refused with where the text breaks
        let error = try #require(parseError)
        #expect(refusal == IngestRequest.Refusal(status: 400, reason: "an event item is \(error)"))
    }

    @Test func anUpperCaseIDShapedLikeAnIBANIsTheEventsIDNotASecret() throws {
        // Given two events in one envelope, the second's id in upper case and shaped like an IBAN (`DE89…`)
        let now = Date().timeIntervalSince1970
        let events = [
            #"{"event_id":"0123456789abcdef0123456789abcdef","timestamp":\#(now),"message":"IBAN DE89370400440532013000"}"#,
            #"{"event_id":"DE89370400440532013000ABCDEF1234","timestamp":\#(now),"release":"r@1"}"#,
        ]
        let items = events.map { Envelope.Item(type: "event", payload: Data($0.utf8)) }
        let body = Envelope(header: [:], items: items).serialized()
        let configuration = IngestConfiguration(logDirectory: URL(fileURLWithPath: "/nonexistent"), publicKey: Self.key)

        // When serve reads them
        let request = try IngestRequest(
            envelope: body, key: Self.key, acceptedKeys: [Self.key], configuration: configuration)

        // Then the second keeps its id, in lower case, rather than taking the first's; the IBAN in the text is filtered
        #expect(request.events.map(\.id) == ["0123456789abcdef0123456789abcdef", "de89370400440532013000abcdef1234"])
        #expect(request.events[0].line.range(of: Data("DE89370400440532013000".utf8)) == nil)
    }

    @Test func anEventIsStoredAndForwardedScrubbedAndCountedAsItsLineReads() throws {
        // Given an event with a secret, whose keys repeat, and one that spans lines
        let now = Date().timeIntervalSince1970
        let events = [
            #"{"event_id":"0123456789abcdef0123456789abcdef","timestamp":\#(now),"tags":{"a":"api_key=sk_4f9a8c7e2b"},"#
                + #""tags":[["error.kind","server"]],"release":"r@1"}"#,
            "{\n\"event_id\":\"fedcba9876543210fedcba9876543210\",\"timestamp\":\(now),\"message\":\"password=hunter2\"}",
        ]
        let items = events.map { Envelope.Item(type: "event", payload: Data($0.utf8)) }
        let body = Envelope(header: [:], items: items).serialized()
        let configuration = IngestConfiguration(logDirectory: URL(fileURLWithPath: "/nonexistent"), publicKey: Self.key)

        // When serve reads them
        let request = try IngestRequest(
            envelope: body, key: Self.key, acceptedKeys: [Self.key], configuration: configuration)

        // Then each line is scrubbed, the forwarded items are scrubbed as received, and each record is its line's
        #expect(request.events.map(\.id) == ["0123456789abcdef0123456789abcdef", "fedcba9876543210fedcba9876543210"])
        for ((_, line), record) in zip(request.events, request.records) {
            #expect(line.range(of: Data("sk_4f9a8c7e2b".utf8)) == nil && line.range(of: Data("hunter2".utf8)) == nil)
            let scanned = [UInt8](line).withUnsafeBufferPointer { try? EventScan(line: $0).record }
            #expect(record != nil && record == scanned)
        }
        #expect(request.records.first??.kind == "server")
        let scrubbed = events.map { Scrubber().scrubbedTexts(inJSON: Data($0.utf8)) }
        #expect(scrubbed.allSatisfy { $0 != nil })
        #expect(request.envelope.items.map(\.payload) == scrubbed.compactMap { $0 })
    }
}
