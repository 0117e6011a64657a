/// The route of a request an SDK timed without naming its route template: the path of its URL, with each segment that
/// looks like an identifier as `*`, as Sentry groups the `http.client` spans of its Requests view. `/users/7` and
/// `/users/8` are the route `/users/*`; `/v2/orders` stays as it is.
///
/// A segment is an identifier when it is a number, a UUID, or at least 8 hexadecimal digits with a digit among them
/// (a hash, a hex id), or holds a digit and is at least 16 long (an opaque token). The scheme, host, query and
/// fragment are left out.
package enum RoutePath {
    /// The route of `url`: a full URL, or a path.
    package static func route(_ url: String) -> String {
        var url = url
        return url.withUTF8(route)
    }

    /// The route of the URL whose UTF-8 bytes are `url`: read byte by byte, as triage reads one for each span.
    package static func route(_ url: UnsafeBufferPointer<UInt8>) -> String {
        var start = 0
        var end = url.count
        if let scheme = firstIndex(of: "://", in: url) {
            start = url[(scheme + 3)...].firstIndex(of: slash) ?? end
        }
        if let stop = url[start..<end].firstIndex(where: { $0 == 0x3F || $0 == 0x23 }) { end = stop }  // ? #
        guard start < end else { return "/" }
        var route: [UInt8] = []
        route.reserveCapacity(end - start)
        var segmentStart = start
        while segmentStart <= end {
            let segmentEnd = url[segmentStart..<end].firstIndex(of: slash) ?? end
            let segment = UnsafeBufferPointer(rebasing: url[segmentStart..<segmentEnd])
            if isIdentifier(segment) { route.append(0x2A) } else { route.append(contentsOf: segment) }
            if segmentEnd < end { route.append(slash) }
            segmentStart = segmentEnd + 1
        }
        return String(decoding: route, as: UTF8.self)
    }

    /// Whether `segment` looks like an identifier rather than a name.
    static func isIdentifier(_ segment: UnsafeBufferPointer<UInt8>) -> Bool {
        var digits = 0
        var isHex = true
        for byte in segment {
            if (0x30...0x39).contains(byte) {
                digits += 1
            } else if !(0x61...0x66).contains(byte | 0x20) && byte != 0x2D {
                isHex = false
            }
        }
        guard digits > 0 else { return false }
        return digits == segment.count || (isHex && segment.count >= 8) || segment.count >= 16
    }

    private static let slash: UInt8 = 0x2F

    /// Where `needle` (ASCII) first starts in `bytes`.
    private static func firstIndex(of needle: StaticString, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let count = needle.utf8CodeUnitCount
        guard bytes.count >= count else { return nil }
        for index in 0...(bytes.count - count) where bytes[index] == needle.utf8Start[0] {
            if (0..<count).allSatisfy({ bytes[index + $0] == needle.utf8Start[$0] }) { return index }
        }
        return nil
    }
}
