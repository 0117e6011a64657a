import FaultlineLogReading
import FaultlineRecords
import FaultlineReporting
import Foundation
import Testing

/// Event lines as the pipeline writes them, and lines it never wrote, read by the byte-level scanner.
@Suite struct EventRecordScanningTests {
    @Test func aPipelineEventIsReadFieldByField() throws {
        // Given an event as the pipeline writes it, with breadcrumbs, request and contexts to skip
        var event = SentryEvent(level: .error, date: Date(timeIntervalSince1970: 1_795_000_000.25))
        event.release = "boleto@4.2.0 (310)"
        event.environment = "production"
        event.exception = .init([
            .init(
                type: "ServerFailure", value: "PATCH /boleto/travels/{id}: 403 \"40304\" — Travel is \\locked\\",
                mechanism: .init(type: "auto.http.faultline", handled: true))
        ])
        event.fingerprint = ["server", "PATCH /boleto/travels/{id}", "403", "40304"]
        event.tags = ["error.kind": "server", "http.route": "/boleto/travels/{id}", "http.status_code": "403"]
        event.user = UserContext(id: "KAKAO_kim", email: "kim@example.com", segment: "KAKAO")
        event.request = .init(method: "PATCH", url: "https://api.example/boleto/travels/1", data: ["a": [1, [2]]])
        event.contexts = ["response": ["status_code": 403, "headers": ["content-type": "application/json"]]]
        event.breadcrumbs = .init(
            (0..<100).map { Breadcrumb(type: "http", message: "GET /a/\($0) \"quoted\" ✓", data: ["i": .int($0)]) })

        // When its line is scanned
        let record = try Self.record(EventEncoder.encode(event))

        // Then every field triage needs is there
        #expect(record.eventID == event.eventID)
        #expect(record.timestamp == 1_795_000_000.25)
        #expect(record.level == "error")
        #expect(record.release == "boleto@4.2.0 (310)")
        #expect(record.environment == "production")
        #expect(record.exceptionType == "ServerFailure")
        #expect(record.exceptionValue == event.exception?.values.first?.value)
        #expect(record.fingerprint == event.fingerprint)
        #expect(record.tags == event.tags)
        #expect(record.user == "KAKAO_kim")
        #expect(record.userSegment == "KAKAO")
    }

    @Test func escapesNumbersAndOffsetsAreRead() throws {
        let line = #"""
              { "timestamp" : "2026-11-23T20:15:13.5+09:00", "event_id":"e1", "message":"tab\there \u00e9\ud83d\ude80 \/",
              "tags": {"http.status_code": 503, "retry": true}, "user": {"id": 42}, "fingerprint": ["a", 7], "extra": null }
            """#
        let record = try Self.record(Data(line.utf8))
        #expect(record.timestamp == 1_795_432_513.5)  // 2026-11-23T11:15:13.5Z
        #expect(record.message == "tab\there é🚀 /")
        #expect(record.tags == ["http.status_code": "503"])
        #expect(record.user == "42")
        #expect(record.fingerprint == ["a", "7"])
        #expect(record.ignoredFields == 1)  // the tag whose value is a boolean
    }

    @Test func fieldsOfAnUnexpectedTypeAreLeftOutAndCountedAndSentrysOtherFormsAreRead() throws {
        let line = #"""
            {"event_id":"e1","timestamp":1795000000,"level":3,"release":["r"],"environment":null,
             "message":{"formatted":"checkout failed for 42","message":"checkout failed for %s"},
             "fingerprint":["a",{"b":1}],"tags":[["error.kind","server"],["http.status_code",502],["alone"]],
             "user":"kim","exception":[{"type":"ServerFailure","value":7}]}
            """#
        let record = try Self.record(Data(line.utf8))
        #expect(record.eventID == "e1" && record.timestamp == 1_795_000_000)
        #expect(record.level == nil && record.release == nil && record.environment == nil)
        #expect(record.message == "checkout failed for 42")
        #expect(record.fingerprint.isEmpty)  // a fingerprint with a bad part is left out whole
        #expect(record.tags == ["error.kind": "server", "http.status_code": "502"])
        #expect(record.user == nil)
        #expect(record.exceptionType == "ServerFailure" && record.exceptionValue == nil)
        // level, release, fingerprint, the lone tag, user, exception value
        #expect(record.ignoredFields == 6)
    }

    @Test(arguments: [
        ("", EventRecord.LineFailure.notJSON),
        ("garbage", .notJSON),
        (#"{"event_id":"e1","timestamp":"2026-11-23T11:15:13Z""#, .notJSON),  // cut short by a crash
        (#"{"event_id":"e1","timestamp":"2026-11-23T11:15:13Z"} trailing"#, .notJSON),
        (#"{"event_id":"e1","breadcrumbs":{"values":[{"a":1]}},"timestamp":"2026-11-23T11:15:13Z"}"#, .notJSON),
        (#"[1,2,3]"#, .notJSON),
        (#"{"event_id":"e1"}"#, .notAnEvent),
        (#"{"event_id":7,"timestamp":"2026-11-23T11:15:13Z"}"#, .notAnEvent),
        (#"{"event_id":"e1","timestamp":"yesterday"}"#, .notAnEvent),
        (#"{"event_id":"e1","timestamp":true}"#, .notAnEvent),
        (#"{"event_id":"e1","timestamp":1e300}"#, .notAnEvent),  // after the year 9999
        (#"{"event_id":"e1","timestamp":-1e15}"#, .notAnEvent),  // before the year 1
        (#"{"event_id":"e1","timestamp":"2026-11-23T11:15:13Z","tags":{"a":}}"#, .notJSON),
        // a control character that is not escaped, deep inside a string the scanner reads eight bytes at a time
        (#"{"event_id":"e1","timestamp":"2026-11-23T11:15:13Z","release":"boleto-ios@4.2.0\#t+310"}"#, .notJSON),
    ])
    func aLineThatIsNotAnEventSaysWhy(line: String, failure: EventRecord.LineFailure) {
        #expect(throws: failure) { try Self.record(Data(line.utf8)) }
    }

    @Test func invalidUTF8IsRefusedEvenInsideSkippedFields() {
        var line = Data(#"{"event_id":"e1","timestamp":"2026-11-23T11:15:13Z","breadcrumbs":"x"#.utf8)
        line.append(contentsOf: [0xC3, 0x28])  // a lead byte without its continuation
        line.append(contentsOf: Data(#""}"#.utf8))
        #expect(throws: EventRecord.LineFailure.notUTF8) { try Self.record(line) }
    }

    @Test(arguments: [
        (#"{"faultline.suppressed":"41"}"#, 41), (#"{"faultline.suppressed":41}"#, 41),
        (#"[["faultline.suppressed","7"]]"#, 7), (#"{"faultline.suppressed":"many"}"#, 0),
        (#"{"faultline.suppressed":"-3"}"#, 0), (#"{"error.kind":"server"}"#, 0),
    ])
    func theSuppressedCountTagIsReadAsTheEventsARecordCountsFor(tags: String, suppressed: Int) throws {
        let line = #"{"event_id":"0123456789abcdef0123456789abcdef","timestamp":1795000000,"tags":\#(tags)}"#

        let record = try Self.record(Data(line.utf8))

        #expect(record.suppressedEvents == suppressed)
        #expect(record.eventCount == suppressed + 1)
    }

    @Test(arguments: [
        #"{"event_id":"e1","timestamp":"2026-11-23T11:15:13Z","tags":{"error.kind":"server","http.route":"/a"}}"#,
        #"""
          { "timestamp" : "2026-11-23T20:15:13.5+09:00", "event_id":"e1", "message":"tab\there \u00e9\ud83d\ude80 \/",
          "tags": {"http.status_code": 503, "retry": true}, "user": {"id": 42}, "fingerprint": ["a", 7], "extra": null }
        """#,
        #"""
        {"event_id":"e1","timestamp":1795000000,"level":3,"release":["r"],"environment":null,
         "message":{"formatted":"checkout failed for 42","message":"checkout failed for %s"},
         "fingerprint":["a",{"b":1}],"tags":[["error.kind","server"],["http.status_code",502],["alone"]],
         "user":"kim","exception":[{"type":"ServerFailure","value":7}]}
        """#,
        // keys that repeat: tags add up, the last id and time win, as the scan of the line reads them
        #"{"event_id":"e1","tags":{"a":"1"},"timestamp":1,"logentry":{"message":"%s of %d","params":["x",2]},"#
            + #""tags":[["b",2]],"event_id":7,"timestamp":"2026-11-23T11:15:13Z","exception":{"values":[{"type":"E"}]}}"#,
        #"{"event_id":"e1","timestamp":1795000000,"tags":{"faultline.suppressed":"41"},"release":"r@1"}"#,
        #"{"event_id":"e1"}"#,
    ])
    func anEventReadInOnePassIsTheScanOfItsLine(line: String) throws {
        // Given an event line, checked and its members located in one pass
        let object = try #require(
            try JSONValue.object(parsing: Data(line.utf8), members: EventScan.memberNames))

        // When the event is read from the members located
        let read = Result { () throws(EventRecord.LineFailure) in try EventScan(readingMembersOf: object) }

        // Then it is the scan (or the failure) of the whole line: its fields, and where the grouping's members are
        let scanned = Result { () throws(EventRecord.LineFailure) in
            try [UInt8](line.utf8).withUnsafeBufferPointer { bytes throws(EventRecord.LineFailure) in
                try EventScan(line: bytes)
            }
        }
        #expect(read == scanned)
    }

    private static func record(_ line: Data) throws -> EventRecord {
        try [UInt8](line).withUnsafeBufferPointer { try EventRecord(line: $0) }
    }
}

/// Events as other SDKs write them: `logentry`, exceptions titled with their type, messages as their own kind.
@Suite struct ForeignEventScanningTests {
    private static func record(_ json: String) throws -> EventRecord {
        try Array(json.utf8).withUnsafeBufferPointer { try EventRecord(line: $0) }
    }

    @Test func logentryIsTheMessageFormattedOrWithItsParameters() throws {
        let base = #""event_id":"0123456789abcdef0123456789abcdef","timestamp":"2026-11-24T10:00:00Z""#
        #expect(try Self.record("{\(base),\"logentry\":{\"formatted\":\"disk full\"}}").message == "disk full")
        #expect(
            try Self.record("{\(base),\"logentry\":{\"message\":\"disk %s is %d%% full\",\"params\":[\"/var\",97]}}")
                .message == "disk /var is 97% full")
        // logentry wins over message, whichever comes first
        #expect(
            try Self.record("{\(base),\"message\":\"old\",\"logentry\":{\"message\":\"new\"}}").message == "new")
        #expect(
            try Self.record("{\(base),\"logentry\":{\"message\":\"new\"},\"message\":\"old\"}").message == "new")
    }

    @Test func titlesAndKindsAreSentrysForOtherSDKsAndFaultlinesOwn() throws {
        let base = #""event_id":"0123456789abcdef0123456789abcdef","timestamp":1795500000"#
        let python = try Self.record(
            "{\(base),\"exception\":{\"values\":[{\"type\":\"ZeroDivisionError\",\"value\":\"division by zero\"}]}}")
        #expect(python.title == "ZeroDivisionError: division by zero")
        #expect(python.kind == "error")
        let own = try Self.record(
            "{\(base),\"tags\":{\"error.kind\":\"server\"},\"exception\":[{\"type\":\"ServerFailure\",\"value\":\"GET /a: HTTP 500\"}]}"
        )
        #expect(own.title == "GET /a: HTTP 500")
        #expect(own.kind == "server")
        let message = try Self.record("{\(base),\"logentry\":{\"formatted\":\"database is on fire\"}}")
        #expect(message.title == "database is on fire")
        #expect(message.kind == "message")
        #expect(try Self.record("{\(base)}").title == "(no message)")
    }
}
