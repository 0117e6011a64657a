import FaultlineRecords
import Foundation

extension EventRecord {
    /// Reads an event from one line of the log (``EventScan``) and groups it: ``grouping`` is the fingerprint, or
    /// Sentry's default grouping (``DefaultGrouping``) when the event has none or one with `{{ default }}`; only then
    /// are its exception's frames, threads and stack trace read.
    package init(line: UnsafeBufferPointer<UInt8>) throws(LineFailure) {
        self.init(try EventScan(line: line), in: line)
    }

    /// How the event on `line` is grouped, value by value: the fingerprint it sent, else what Sentry's default
    /// grouping counted of it (``DefaultGrouping``), with the values of a fingerprint beside `{{ default }}`.
    package static func groupingExplanation(line: UnsafeBufferPointer<UInt8>) throws(LineFailure)
        -> GroupingExplanation
    {
        let scan = try EventScan(line: line)
        let fingerprint = scan.record.fingerprint
        let custom = fingerprint.filter { !DefaultGrouping.isDefault($0) }.map {
            GroupingExplanation.Value(path: "fingerprint", value: $0)
        }
        guard custom.count < fingerprint.count || fingerprint.isEmpty else {
            return GroupingExplanation(variant: .fingerprint, values: custom)
        }
        var explanation = DefaultGrouping.explanation(scan.groupingSources, message: scan.record.message, in: line)
        explanation.values += custom
        return explanation
    }

    /// The record `scan` read from `bytes`, grouped. The scan is consumed, so that its record is moved, not copied.
    private init(_ scan: consuming EventScan, in bytes: UnsafeBufferPointer<UInt8>) {
        self = scan.record
        guard fingerprint.isEmpty || fingerprint.contains(where: DefaultGrouping.isDefault) else {
            grouping = fingerprint
            return
        }
        let defaults = DefaultGrouping.fingerprint(scan.groupingSources, message: message, in: bytes)
        grouping =
            fingerprint.isEmpty ? defaults : fingerprint.flatMap { DefaultGrouping.isDefault($0) ? defaults : [$0] }
    }
}
