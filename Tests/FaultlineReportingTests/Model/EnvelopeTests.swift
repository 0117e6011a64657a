import Faultline
import FaultlineRecords
import FaultlineReporting
import Foundation
import TestSupport
import Testing

/// Envelopes follow the wire format: compact header lines, item lengths in bytes, one event per envelope; the
/// official Sentry Python SDK's parser reads them back.
@Suite struct EnvelopeTests {
    static func event(message: String) throws -> (SentryEvent, Data) {
        var event = SentryEvent()
        event.message = message
        event.tags = ["error.kind": "server", "server.code": "40101"]
        event.user = UserContext(id: "KAKAO_김철수", segment: "KAKAO")
        event.breadcrumbs = .init([Breadcrumb(type: "http", category: "http", message: "GET /users/{id} 200")])
        return (event, EventEncoder.encode(event))
    }

    @Test func itemLengthsCountBytesNotCharacters() throws {
        let (event, payload) = try Self.event(message: "만료된 토큰입니다.")
        let dsn = try DSN("http://0123456789abcdef0123456789abcdef@127.0.0.1:9000/42")

        let data = Envelope(eventID: event.eventID, eventJSON: payload, dsn: dsn).serialized()
        let lines = data.split(separator: 0x0A, omittingEmptySubsequences: false)

        #expect(lines.count == 4)
        let header = try JSONDecoder().decode([String: JSONValue].self, from: Data(lines[0]))
        let itemHeader = try JSONDecoder().decode([String: JSONValue].self, from: Data(lines[1]))
        #expect(header["event_id"] == .string(event.eventID))
        #expect(header["dsn"] == .string(dsn.description))
        #expect(itemHeader["type"] == "event")
        #expect(itemHeader["length"] == .int(payload.count))
        #expect(payload.count > String(decoding: payload, as: UTF8.self).count)
        #expect(Data(lines[2]) == payload)
        #expect(lines[3].isEmpty)
    }

    @Test func theOfficialPythonSDKParsesEveryEnvelopeWeWrite() async throws {
        // Given envelopes with non-ASCII text, a DSN header and a send time
        let temporary = try TemporaryDirectory("envelopes")
        defer { temporary.remove() }
        let directory = temporary.url
        let dsn = try DSN("http://0123456789abcdef0123456789abcdef@127.0.0.1:9000/42")
        var expected: [(id: String, bytes: Int)] = []
        var files: [String] = []
        for (index, message) in ["만료된 토큰입니다.", "plain ascii", "emoji 🚨 and \"quotes\"\nnewline"].enumerated() {
            let (event, payload) = try Self.event(message: message)
            let file = directory.appendingPathComponent("\(index).envelope")
            try Envelope(eventID: event.eventID, eventJSON: payload, dsn: dsn).serialized(sentAt: Date()).write(
                to: file)
            expected.append((event.eventID, payload.count))
            files.append(file.path)
        }

        // When sentry-sdk parses them
        let parsed = try JSONDecoder().decode([JSONValue].self, from: await PythonPeer.run("parse_envelopes.py", files))

        // Then it reads each header, one event item of the stated length, and the same event back
        #expect(parsed.count == expected.count)
        for (envelope, expectation) in zip(parsed, expected) {
            let headers = envelope.objectValue?["headers"]?.objectValue
            #expect(headers?["event_id"] == .string(expectation.id))
            #expect(headers?["sent_at"]?.stringValue?.hasSuffix("Z") == true)
            guard case .array(let items) = envelope.objectValue?["items"], let item = items.first?.objectValue else {
                Issue.record("no items in \(envelope)")
                continue
            }
            #expect(items.count == 1)
            #expect(item["type"] == "event")
            #expect(item["headers"]?.objectValue?["length"] == .int(expectation.bytes))
            #expect(item["payload"]?.objectValue?["event_id"] == .string(expectation.id))
            #expect(item["payload"]?.objectValue?["user"]?.objectValue?["id"] == "KAKAO_김철수")
        }
    }
}
