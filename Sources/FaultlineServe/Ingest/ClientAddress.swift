import FaultlineRecords
import Foundation

/// The client's address where an event asks for it: `user.ip_address` of `{{auto}}`, which the browser and mobile
/// SDKs send (sentry-cocoa, sentry-javascript) for the ingest to fill in, as Sentry's does, from the connection it
/// came over. It is filled in before scrubbing, so that `--scrub-ip-addresses` removes it like any other.
enum ClientAddress {
    /// `event` with its user's `{{auto}}` address replaced by `address`; as it is when it asks for none (or `address`
    /// is unknown). Only the user is written again; the rest of the text is kept as it was.
    static func filled(in event: Data, with address: String?) -> Data {
        guard let address, asksForAddress(event),
            let text = try? JSONValue.object(parsing: event, members: ["user"]),
            let range = text.members.last(where: { $0.name == "user" })?.value,
            case .object(var user)? = text.value(of: "user"),
            user["ip_address"] == .string("{{auto}}")
        else { return event }
        user["ip_address"] = .string(address)
        let written = JSONValue.object(user).compactJSON
        var filled = Data(event.prefix(range.lowerBound))
        filled.append(written)
        filled.append(event.dropFirst(range.upperBound))
        return filled
    }

    /// Whether `event` holds `{{auto}}` anywhere, found from brace to brace with `memchr`: `Data.range(of:)` took 2 %
    /// of serve's CPU per event, most events holding no `{{auto}}` at all.
    private static func asksForAddress(_ event: Data) -> Bool {
        let marker: StaticString = "{{auto}}"
        let length = marker.utf8CodeUnitCount
        return event.withUnsafeBytes { raw in
            guard let base = raw.baseAddress, raw.count >= length else { return false }
            var offset = 0
            while offset <= raw.count - length, let brace = memchr(base + offset, 0x7B, raw.count - length + 1 - offset)
            {
                if memcmp(brace, marker.utf8Start, length) == 0 { return true }
                offset = base.distance(to: UnsafeRawPointer(brace)) + 1
            }
            return false
        }
    }
}
