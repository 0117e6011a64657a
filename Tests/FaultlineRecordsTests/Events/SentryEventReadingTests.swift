import FaultlineRecords
import Foundation
import Testing

/// An event is read as any SDK sends it: the forms the protocol allows besides Faultline's, members of a type the
/// protocol does not allow left out, and a clear reason when the line is not an event at all.
@Suite struct SentryEventReadingTests {
    @Test func theFormsOtherSDKsSendAreRead() throws {
        let line = #"""
            {"event_id":"9f2c8a1b4d6e4f0a8b1c2d3e4f5a6b7c","timestamp":1790000000.5,"platform":"python",
             "level":"warning","message":{"formatted":"card 4111 declined","message":"card %s declined"},
             "tags":[["http.route","/pay"],["attempt",2],["lone"]],
             "exception":[{"type":"ValueError","stacktrace":{"frames":[{"function":"pay","lineno":12.0,"in_app":true}]}}],
             "breadcrumbs":{"values":[{"timestamp":1789999999,"message":"GET /cart"},{"message":"no timestamp"}]},
             "threads":{"stacktrace":{"frames":[{"function":"run"}]},"current":true},
             "request":{"method":"POST","headers":[["Content-Type","application/json"],["X-Retry",1]]},
             "user":{"id":42,"ip_address":"{{auto}}"},
             "fingerprint":["pay",409],
             "sdk":{"name":"sentry.python"}}
            """#
        let event = try SentryEvent(line: Data(line.utf8))

        #expect(event.timestamp == "2026-09-21T14:13:20.500Z")
        #expect(event.level == .warning && event.platform == "python" && event.logger == nil)
        #expect(event.message == "card 4111 declined")
        #expect(event.tags == ["http.route": "/pay", "attempt": "2"])
        let exception = try #require(event.exception?.values.first)
        #expect(exception.type == "ValueError" && exception.value == "")
        #expect(exception.mechanism == .init(type: "generic", handled: true))
        #expect(exception.stacktrace?.frames == [.init(function: "pay", lineno: 12, inApp: true)])
        #expect(event.breadcrumbs?.values.map(\.message) == ["GET /cart"])
        #expect(event.breadcrumbs?.values.first?.timestamp == "2026-09-21T14:13:19.000Z")
        #expect(event.breadcrumbs?.values.first?.type == "default")
        #expect(event.threads?.values.first?.current == true)
        #expect(event.request?.headers == ["Content-Type": "application/json", "X-Retry": "1"])
        #expect(event.user == UserContext(id: "42", ipAddress: "{{auto}}"))
        #expect(event.fingerprint == ["pay", "409"])
        #expect(event.sdk == .init(name: "sentry.python", version: "unknown"))
    }

    @Test func aMemberOfTheWrongTypeIsLeftOutAndTheEventKept() throws {
        let line = #"""
            {"event_id":"9f2c8a1b4d6e4f0a8b1c2d3e4f5a6b7c","timestamp":"2026-09-21T14:13:20.500Z",
             "level":"catastrophic","server_name":7,"release":["1.0"],"platform":null,
             "exception":{"values":"none"},"request":"GET /","user":[1],"contexts":[],"tags":"x"}
            """#
        let event = try SentryEvent(line: Data(line.utf8))

        #expect(event.level == .error && event.platform == "other")
        #expect(event.serverName == nil && event.release == nil)
        #expect(event.exception == nil && event.request == nil && event.user == nil)
        #expect(event.contexts.isEmpty && event.tags.isEmpty)
        #expect(event.sdk == .init(name: "unknown", version: "unknown"))
    }

    @Test func aLineThatIsNoEventSaysWhy() {
        #expect(throws: SentryEvent.ReadError.notAnObject) { try SentryEvent(line: Data("[1]".utf8)) }
        #expect(throws: SentryEvent.ReadError.missing("event_id")) {
            try SentryEvent(line: Data(#"{"event_id":1,"timestamp":"2026-09-21T14:13:20Z"}"#.utf8))
        }
        #expect(throws: SentryEvent.ReadError.missing("timestamp")) {
            try SentryEvent(line: Data(#"{"event_id":"9f2c","timestamp":true}"#.utf8))
        }
        #expect {
            try SentryEvent(line: Data(#"{"event_id":"9f2c","timestamp":"#.utf8))
        } throws: { error in
            guard case SentryEvent.ReadError.notJSON(let reason) = error else { return false }
            return "\(error)" == "\(reason)" && reason.offset == 31
        }
    }
}
