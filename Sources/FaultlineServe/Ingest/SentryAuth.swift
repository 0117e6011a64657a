import FaultlineRecords
import FaultlineReporting
import Foundation

/// Who a request says it is: the `sentry_key` of the `X-Sentry-Auth` header (or `Authorization: Sentry …`), else of
/// the `sentry_key` query item, else of the envelope header's `dsn`, the three places SDKs put it.
///
/// Headers and queries are read by Unicode scalar, as Relay reads them, not by `Character`: a combining mark after a
/// `,` or an `=` would otherwise join it into one character and hide the separator.
package enum SentryAuth {
    /// The key in an auth header value such as `Sentry sentry_key=abc, sentry_version=7, sentry_client=x/1.0`.
    ///
    /// Read with Swift's own string operations rather than Foundation's `trimmingCharacters` and `lowercased()` of the
    /// whole value, which are costly at every request (Benchmarks/README.md).
    package static func key(inHeader value: String?) -> String? {
        guard let scalars = value?.unicodeScalars,
            let start = scalars.index(scalars.startIndex, offsetBy: 7, limitedBy: scalars.endIndex),
            String(String.UnicodeScalarView(scalars[..<start])).lowercased() == "sentry "
        else { return nil }
        for pair in scalars[start...].split(separator: ",") {
            guard let equals = pair.firstIndex(of: "=") else { continue }
            let name = trimmed(pair[..<equals])
            let key = trimmed(pair[pair.index(after: equals)...])
            if name.elementsEqual("sentry_key".unicodeScalars), !key.isEmpty {
                return String(String.UnicodeScalarView(key))
            }
        }
        return nil
    }

    /// `text` without the spaces and tabs around it.
    private static func trimmed(_ text: Substring.UnicodeScalarView) -> Substring.UnicodeScalarView {
        let isBlank = { (scalar: Unicode.Scalar) in scalar == " " || scalar == "\t" }
        guard let first = text.firstIndex(where: { !isBlank($0) }), let last = text.lastIndex(where: { !isBlank($0) })
        else { return text[text.endIndex...] }
        return text[first...last]
    }

    /// The key in a query string such as `sentry_key=abc&sentry_version=7`: the first `sentry_key` item with a value,
    /// name and value percent-decoded, as Relay reads the query.
    package static func key(inQuery query: String?) -> String? {
        guard let query else { return nil }
        for pair in query.unicodeScalars.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2,
                String(String.UnicodeScalarView(parts[0])).removingPercentEncoding == "sentry_key"
            else { continue }
            return String(String.UnicodeScalarView(parts[1])).removingPercentEncoding
        }
        return nil
    }

    /// The public key of the envelope header's `dsn`.
    static func key(inEnvelope envelope: Envelope) -> String? {
        guard case .string(let dsn)? = envelope.header["dsn"] else { return nil }
        return (try? DSN(dsn))?.publicKey
    }
}
