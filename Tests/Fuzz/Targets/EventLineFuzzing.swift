import FaultlineLogReading
import FaultlineReporting
import Foundation

/// A log line as triage scans it, and as `faultline serve` reads the same event in one pass when it stores it: where
/// both read it, they must read the same record. The scanner checks the values it skips only for nesting and string
/// ends (what keeps it at a gigabyte a second), so it may read an event from a line the parser refuses, one whose
/// skipped parts are not JSON; what serve and the SDK write is checked whole.
enum EventLineFuzzing {
    static func run(_ data: Data) throws(Disagreement) {
        guard !data.contains(0x0A) else { return }
        let scanned = Array(data).withUnsafeBufferPointer { try? EventRecord(line: $0) }
        guard let object = try? JSONValue.object(parsing: data, members: EventRecord.memberNames) else { return }
        guard !object.hasEscapedKey, String(data: data, encoding: .utf8) != nil else { return }
        let read = try? EventRecord(readingMembersOf: object)
        try Disagreement.check(
            scanned == read, "the scanner and the one-pass read of a line read different events")
    }
}
