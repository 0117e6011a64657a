import Foundation

/// A Sentry envelope: a header line, then items, each a header line with the payload's `length` in bytes and the
/// payload (Sentry developer docs, "Envelopes"). Faultline sends one event per envelope, as the protocol requires.
package struct Envelope: Sendable {
    /// One item of an envelope.
    package struct Item: Sendable {
        /// The item type: `event`, `client_report`, …
        package let type: String
        /// The payload bytes.
        package let payload: Data
        /// The item header's fields other than `type` and `length`, as an SDK sent them (an attachment's `filename`,
        /// `content_type` and `attachment_type`); empty for the items Faultline makes, which are written with
        /// `content_type` `application/json`.
        package let headers: [String: JSONValue]

        package init(type: String, payload: Data, headers: [String: JSONValue] = [:]) {
            self.type = type
            self.payload = payload
            self.headers = headers
        }
    }

    /// The envelope header's fields (`event_id`, `dsn`, `sdk`, `sent_at`).
    package var header: [String: JSONValue]
    package var items: [Item]

    package init(header: [String: JSONValue], items: [Item]) {
        self.header = header
        self.items = items
    }

    /// The envelope's bytes, with `sent_at` set to `sentAt` when given (it must be set at send time only).
    ///
    /// Header lines are compact JSON on one line; each item header states its payload length in bytes; every
    /// payload is followed by `\n`.
    package func serialized(sentAt: Date? = nil) -> Data {
        var header = header
        if let sentAt { header["sent_at"] = .string(RFC3339.string(from: sentAt)) }
        var writer = JSONWriter(capacity: items.reduce(256) { $0 + $1.payload.count + 96 })
        writer.value(.object(header))
        var data = Data(writer.bytes)
        data.append(0x0A)
        for item in items { Self.append(item, to: &data) }
        return data
    }

    /// The bytes of a stored envelope, as ``serialized(sentAt:)`` wrote them without `sent_at`, with `sent_at` added
    /// to the header and `items` appended, without reading the payloads: what is sent of a stored envelope.
    ///
    /// - Throws: When `stored` does not start with a header object on its own line.
    package static func stamping(_ stored: Data, sentAt: Date, appending items: [Item] = []) throws(ParseError) -> Data
    {
        guard let headerEnd = stored.firstIndex(of: 0x0A), stored.first == UInt8(ascii: "{"),
            stored[stored.index(before: headerEnd)] == UInt8(ascii: "}")
        else { throw ParseError(reason: "it does not start with a header object on its own line") }
        var sentAtMember = JSONWriter(capacity: 48)
        sentAtMember.object { $0.member("sent_at", RFC3339.string(from: sentAt)) }
        var data = Data(capacity: stored.count + 64 + items.reduce(0) { $0 + $1.payload.count + 96 })
        // `{"sent_at":"…"` then the stored header's members after its `{`, with a comma unless it had none.
        data.append(contentsOf: sentAtMember.bytes.dropLast())
        let storedMembers = stored[stored.index(after: stored.startIndex)...]
        if storedMembers.first != UInt8(ascii: "}") { data.append(UInt8(ascii: ",")) }
        data.append(storedMembers)
        if stored.last != 0x0A { data.append(0x0A) }
        for item in items { append(item, to: &data) }
        return data
    }

    /// Appends an item's header line and payload, each followed by `\n`, to envelope bytes that end with `\n`.
    private static func append(_ item: Item, to data: inout Data) {
        var itemHeader = JSONWriter(capacity: 96)
        if item.headers.isEmpty {
            itemHeader.object {
                $0.member("content_type", "application/json")
                $0.key("length")
                $0.value(.int(item.payload.count))
                $0.member("type", item.type)
            }
        } else {
            var fields = item.headers
            fields["length"] = .int(item.payload.count)
            fields["type"] = .string(item.type)
            itemHeader.value(.object(fields))
        }
        data.append(contentsOf: itemHeader.bytes)
        data.append(0x0A)
        data.append(item.payload)
        data.append(0x0A)
    }
}
