import FaultlineRecords
import Foundation

extension Envelope {
    /// The envelope that carries one line of a reporter's log (``RecordKind``) to `dsn`: an item of the kind's type,
    /// then `items`. An event's and a transaction's header name the event's id, `eventID` when the one who logged it
    /// said it, else the one found in the line; a transaction's carries its trace's dynamic sampling context, `trace`
    /// (a JSON object) when it was kept from this run, else rebuilt from the line (``DynamicSamplingContext/init(recordedTransaction:publicKey:)``).
    init(
        carrying line: Data, of kind: RecordKind, eventID: String?, trace: Data?, to dsn: DSN,
        appending items: [Item]
    ) {
        var header: [String: JSONValue] = ["dsn": .string(dsn.description)]
        if kind != .outcomes, let eventID = eventID ?? JSONScanner.string(ofMember: "event_id", in: line) {
            header["event_id"] = .string(eventID)
        }
        if kind == .transactions,
            let trace = trace.flatMap({ try? JSONValue(parsing: $0) })
                ?? Self.rebuiltTrace(of: line, publicKey: dsn.publicKey)
        {
            header["trace"] = trace
        }
        self.init(header: header, items: [Item(type: kind.itemType, payload: line)] + items)
    }

    /// The trace header of the transaction `line` holds, rebuilt from its event; `nil` when it names no trace.
    private static func rebuiltTrace(of line: Data, publicKey: String) -> JSONValue? {
        let names: Set = ["contexts", "release", "environment", "transaction"]
        guard let members = try? JSONValue.members(names, ofObjectParsing: line) ?? nil else { return nil }
        return DynamicSamplingContext(recordedTransaction: members, publicKey: publicKey)?.json
    }
}
