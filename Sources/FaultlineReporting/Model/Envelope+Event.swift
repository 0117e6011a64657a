import FaultlineRecords
import Foundation

extension Envelope {
    /// An envelope carrying one event, whose payload is `eventJSON` exactly (the same bytes as its local log line),
    /// addressed to `dsn` when given.
    package init(eventID: String, eventJSON: Data, dsn: DSN?) {
        var header: [String: JSONValue] = ["event_id": .string(eventID)]
        if let dsn { header["dsn"] = .string(dsn.description) }
        self.init(header: header, items: [Item(type: "event", payload: eventJSON)])
    }
}
