import FaultlineServe
import Foundation

/// The `sentry_key` in an `X-Sentry-Auth` header and in a query string, as any client writes them to
/// `faultline serve`: a key read is one a header or a query written with it gives back, and any key written into
/// either is read back.
enum AuthFuzzing {
    /// What a query item's value keeps as it is: the rest is percent-encoded.
    private static let queryValueCharacters = CharacterSet.urlQueryAllowed.subtracting(
        CharacterSet(charactersIn: "&=+"))

    static func run(_ data: Data) throws(Disagreement) {
        guard let text = String(data: data, encoding: .utf8) else { return }
        if let key = SentryAuth.key(inHeader: text) {
            try Disagreement.check(
                !key.isEmpty && !key.unicodeScalars.contains(",") && !isBlank(key.unicodeScalars.first)
                    && !isBlank(key.unicodeScalars.last),
                "the header \(text.debugDescription) gives the key \(key.debugDescription)")
            try checkHeader(carrying: key)
        }
        if let key = SentryAuth.key(inQuery: text) {
            try Disagreement.check(!key.isEmpty, "the query \(text.debugDescription) gives an empty key")
            try checkQuery(carrying: key)
        }
        // The input as a key: every key a client can send is read back from a header and from a query.
        let key = text.unicodeScalars
        if !key.isEmpty, !key.contains(","), !isBlank(key.first), !isBlank(key.last) { try checkHeader(carrying: text) }
        if !text.isEmpty { try checkQuery(carrying: text) }
    }

    private static func isBlank(_ scalar: Unicode.Scalar?) -> Bool { scalar == " " || scalar == "\t" }

    private static func checkHeader(carrying key: String) throws(Disagreement) {
        let header = "Sentry sentry_version=7, sentry_client=sentry.python/2.0,sentry_key=\(key) , sentry_secret=x"
        let read = SentryAuth.key(inHeader: header)
        try Disagreement.check(read == key, "the header \(header.debugDescription) gives \(read.debugDescription)")
    }

    private static func checkQuery(carrying key: String) throws(Disagreement) {
        guard let value = key.addingPercentEncoding(withAllowedCharacters: queryValueCharacters) else { return }
        let query = "sentry_version=7&sentry_key=\(value)&sentry_key=other"
        let read = SentryAuth.key(inQuery: query)
        try Disagreement.check(read == key, "the query \(query.debugDescription) gives \(read.debugDescription)")
    }
}
