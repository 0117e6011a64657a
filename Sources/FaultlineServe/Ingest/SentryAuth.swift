import FaultlineReporting
import Foundation

/// Who a request says it is: the `sentry_key` of the `X-Sentry-Auth` header (or `Authorization: Sentry …`), else of
/// the `sentry_key` query item, else of the envelope header's `dsn`, the three places SDKs put it.
enum SentryAuth {
    /// The key in an auth header value such as `Sentry sentry_key=abc, sentry_version=7, sentry_client=x/1.0`.
    ///
    /// Read with Swift's own string operations rather than Foundation's `trimmingCharacters` and `lowercased()` of the
    /// whole value, which are costly at every request (Benchmarks/README.md).
    static func key(inHeader value: String?) -> String? {
        guard let value, value.prefix(7).lowercased() == "sentry " else { return nil }
        for pair in value.dropFirst(7).split(separator: ",") {
            guard let equals = pair.firstIndex(of: "=") else { continue }
            let name = trimmed(pair[..<equals])
            let key = trimmed(pair[pair.index(after: equals)...])
            if name == "sentry_key", !key.isEmpty { return String(key) }
        }
        return nil
    }

    /// `text` without the spaces and tabs around it.
    private static func trimmed(_ text: Substring) -> Substring {
        let isBlank = { (character: Character) in character == " " || character == "\t" }
        guard let first = text.firstIndex(where: { !isBlank($0) }), let last = text.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return text[first...last]
    }

    /// The key in a query string such as `sentry_key=abc&sentry_version=7`.
    static func key(inQuery query: String?) -> String? {
        guard let query else { return nil }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0] == "sentry_key", !parts[1].isEmpty {
                return String(parts[1]).removingPercentEncoding
            }
        }
        return nil
    }

    /// The public key of the envelope header's `dsn`.
    static func key(inEnvelope envelope: Envelope) -> String? {
        guard case .string(let dsn)? = envelope.header["dsn"] else { return nil }
        return (try? DSN(dsn))?.publicKey
    }
}
