import FaultlineLogReading
import FaultlineRecords
import FaultlineReporting
import Foundation

/// A log line as triage scans it, as `faultline serve` reads the same event in one pass when it stores it, and as
/// `faultline show` reads it in full. Where the scanner and the one-pass read both read it, they must read the same
/// record. The scanner checks the values it skips only for nesting and string ends (what keeps it at a gigabyte a
/// second), so it may read an event from a line the parser refuses, one whose skipped parts are not JSON; what serve
/// and the SDK write is checked whole. An event read in full is written back by the event encoder to a line that
/// reads back as the same event, and that the scanner reads with the same id.
enum EventLineFuzzing {
    static func run(_ data: Data) throws(Disagreement) {
        guard !data.contains(0x0A) else { return }
        try roundTrip(data)
        let scanned = Array(data).withUnsafeBufferPointer { try? EventScan(line: $0) }
        guard let object = try? JSONValue.object(parsing: data, members: EventScan.memberNames) else { return }
        guard !object.hasEscapedKey, String(data: data, encoding: .utf8) != nil else { return }
        let read = try? EventScan(readingMembersOf: object)
        try Disagreement.check(
            scanned == read, "the scanner and the one-pass read of a line read different events")
    }

    /// The event `data` holds, if it holds one, written and read back.
    private static func roundTrip(_ data: Data) throws(Disagreement) {
        guard let event = try? SentryEvent(line: data) else { return }
        let written = EventEncoder.encode(event)
        try Disagreement.check(!written.contains(0x0A), "the event encoder writes more than one line")
        let again: SentryEvent
        do {
            again = try SentryEvent(line: written)
        } catch {
            throw Disagreement(description: "what the event encoder writes cannot be read back: \(error)")
        }
        // a number with no fraction is written without one and read back as an integer: compare the bytes
        try Disagreement.check(
            EventEncoder.encode(again) == written, "what the event encoder writes reads back as another event")
        try Disagreement.check(again.eventID == event.eventID, "the event reads back with another id")
        if let record = Array(written).withUnsafeBufferPointer({ try? EventRecord(line: $0) }) {
            try Disagreement.check(record.eventID == event.eventID, "the scanner reads another id than the event's")
        }
    }
}
