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
        var path = Substring(url)
        if let scheme = path.range(of: "://") {
            path = path[scheme.upperBound...]
            path = path.firstIndex(of: "/").map { path[$0...] } ?? ""
        }
        if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<end] }
        guard !path.isEmpty else { return "/" }
        return path.split(separator: "/", omittingEmptySubsequences: false)
            .map { isIdentifier($0) ? "*" : String($0) }
            .joined(separator: "/")
    }

    /// Whether `segment` looks like an identifier rather than a name.
    static func isIdentifier(_ segment: Substring) -> Bool {
        let bytes = segment.utf8
        guard !bytes.isEmpty else { return false }
        let digits = bytes.count { (0x30...0x39).contains($0) }
        guard digits > 0 else { return false }
        if digits == bytes.count { return true }
        let isHex = bytes.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0 | 0x20) || $0 == 0x2D }
        if isHex && bytes.count >= 8 { return true }
        return bytes.count >= 16
    }
}
