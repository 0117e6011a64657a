import FaultlineRecords
import Foundation
import Testing

/// Locating a member steps over the members before it without reading them, and finds only a member of the object
/// itself: one of the same name inside a nested value, or a string that looks like it, is not it.
@Suite struct JSONScannerLocateTests {
    @Test func theMemberIsFoundPastNestedOnesOfTheSameName() {
        let line = Data(
            (#"{"extra":{"level":"nested"},"message":"say \"level\":\"fake\"","crumbs":[{"level":1}],"#
                + #" "level" : "error","tags":{}}"#).utf8)
        #expect(JSONScanner.string(ofMember: "level", in: line) == "error")
    }

    @Test func theCursorIsLeftAtTheValueForAnyReading() {
        let bytes = Array(#"{"a":[1,2],"count":42,"b":true}"#.utf8)
        bytes.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(buffer)
            let found = scanner.locate(member: "count")
            let count = scanner.integer()
            #expect(found)
            #expect(count == 42)
        }
    }

    @Test(arguments: [
        #"{"extra":{"level":"nested"}}"#, #"{}"#, #"[{"level":"x"}]"#, #""level""#, #"{"a":[1,"#, #"{"level":4}"#,
        #"{"level":"cut"#,
    ])
    func withoutAReadableTopLevelMemberThereIsNone(_ text: String) {
        #expect(JSONScanner.string(ofMember: "level", in: Data(text.utf8)) == nil)
    }
}
