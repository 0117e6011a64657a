import Testing

@testable import FaultlineServe

/// The key of an `X-Sentry-Auth` header is found wherever SDKs put it among the pairs, with any spacing and any case of
/// the scheme; a header of another scheme or without a key has none. A query's key is its first `sentry_key` item,
/// percent-decoded.
@Suite struct SentryAuthTests {
    @Test(arguments: [
        ("Sentry sentry_key=abc, sentry_version=7", "abc"),
        ("Sentry sentry_version=7, sentry_client=sentry.python/2.75.0, sentry_key=abc", "abc"),
        ("SENTRY sentry_version=7,sentry_key = abc ", "abc"),
        ("sentry \tsentry_key=abc\t", "abc"),
        // a combining mark after a separator does not hide it: pairs are split by scalar, not by character
        ("Sentry sentry_key=abc,\u{301}sentry_version=7", "abc"),
    ])
    func theKeyIsReadFromAnyPair(header: String, key: String) {
        #expect(SentryAuth.key(inHeader: header) == key)
    }

    @Test(arguments: ["Bearer abc", "Sentry sentry_key=", "Sentry sentry_version=7", "Sentry", ""])
    func aHeaderWithoutAKeyHasNone(header: String) {
        #expect(SentryAuth.key(inHeader: header) == nil)
    }

    @Test(arguments: [
        ("sentry_key=abc&sentry_version=7", "abc"), ("sentry_version=7&sentry_key=a%20b&sentry_key=c", "a b"),
        ("sentry%5Fkey=abc", "abc"), ("sentry_key=&sentry_key=abc", "abc"),
    ])
    func theKeyOfAQueryIsItsFirstSentryKeyDecoded(query: String, key: String) {
        #expect(SentryAuth.key(inQuery: query) == key)
    }
}
