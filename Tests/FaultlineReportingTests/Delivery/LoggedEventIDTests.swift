import FaultlineRecords
import Foundation
import Testing

@testable import FaultlineReporting

/// The envelope of an event read back from the log names the event's own `event_id`: the top-level member, not one of
/// the same name inside a breadcrumb's data or a string.
@Suite struct LoggedEventIDTests {
    @Test func theTopLevelEventIDIsReadPastNestedOnesAndStringsThatLookLikeIt() {
        let line = Data(
            (#"{"breadcrumbs":{"values":[{"data":{"event_id":"nested"},"message":"say \"event_id\":\"fake\""}]},"#
                + #""contexts":{},"event_id":"0123456789abcdef0123456789abcdef","level":"error"}"#).utf8)
        #expect(JSONScanner.string(ofMember: "event_id", in: line) == "0123456789abcdef0123456789abcdef")
    }

    @Test func aLineWithoutATopLevelEventIDHasNone() {
        #expect(JSONScanner.string(ofMember: "event_id", in: Data(#"{"extra":{"event_id":"nested"}}"#.utf8)) == nil)
        #expect(JSONScanner.string(ofMember: "event_id", in: Data(#"{"event_id":42}"#.utf8)) == nil)
        #expect(JSONScanner.string(ofMember: "event_id", in: Data(#"{"event_id":"cut"#.utf8)) == nil)
    }

    @Test func anEventTheEncoderWroteHasItsIDRead() {
        var event = SentryEvent(level: .error)
        event.message = "boom"
        #expect(JSONScanner.string(ofMember: "event_id", in: EventEncoder.encode(event)) == event.eventID)
    }
}
