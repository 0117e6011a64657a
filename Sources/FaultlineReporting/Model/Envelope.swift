import Foundation

/// A Sentry envelope: a header line, then items, each a header line with the payload's `length` in bytes and the
/// payload (Sentry developer docs, "Envelopes"). Faultline sends one event per envelope, as the protocol requires.
public struct Envelope: Sendable {
    /// One item of an envelope.
    public struct Item: Sendable {
        /// The item type: `event`, `client_report`, …
        public let type: String
        /// The payload bytes.
        public let payload: Data

        public init(type: String, payload: Data) {
            self.type = type
            self.payload = payload
        }
    }

    /// The envelope header's fields (`event_id`, `dsn`, `sdk`, `sent_at`).
    public var header: [String: JSONValue]
    public var items: [Item]

    public init(header: [String: JSONValue], items: [Item]) {
        self.header = header
        self.items = items
    }

    /// An envelope carrying one event, whose payload is `eventJSON` exactly (the same bytes as its local log line).
    public init(eventID: String, eventJSON: Data, dsn: DSN?) {
        var header: [String: JSONValue] = ["event_id": .string(eventID)]
        if let dsn { header["dsn"] = .string(dsn.description) }
        self.init(header: header, items: [Item(type: "event", payload: eventJSON)])
    }

    /// The envelope's bytes, with `sent_at` set to `sentAt` when given (it must be set at send time only).
    ///
    /// Header lines are compact JSON on one line; each item header states its payload length in bytes; every
    /// payload is followed by `\n`.
    public func serialized(sentAt: Date? = nil) -> Data {
        var header = header
        if let sentAt { header["sent_at"] = .string(RFC3339.string(from: sentAt)) }
        var writer = JSONWriter(capacity: items.reduce(256) { $0 + $1.payload.count + 96 })
        writer.value(.object(header))
        var data = Data(writer.bytes)
        for item in items {
            var itemHeader = JSONWriter(capacity: 96)
            itemHeader.object {
                $0.member("content_type", "application/json")
                $0.key("length")
                $0.value(.int(item.payload.count))
                $0.member("type", item.type)
            }
            data.append(0x0A)
            data.append(contentsOf: itemHeader.bytes)
            data.append(0x0A)
            data.append(item.payload)
        }
        data.append(0x0A)
        return data
    }
}
