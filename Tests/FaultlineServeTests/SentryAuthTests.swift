import Testing

@testable import FaultlineServe

/// The key of an `X-Sentry-Auth` header is found wherever SDKs put it among the pairs, with any spacing and any case of
/// the scheme; a header of another scheme or without a key has none.
@Suite struct SentryAuthTests {
    @Test(arguments: [
        ("Sentry sentry_key=abc, sentry_version=7", "abc"),
        ("Sentry sentry_version=7, sentry_client=sentry.python/2.75.0, sentry_key=abc", "abc"),
        ("SENTRY sentry_version=7,sentry_key = abc ", "abc"),
        ("sentry \tsentry_key=abc\t", "abc"),
    ])
    func theKeyIsReadFromAnyPair(header: String, key: String) {
        #expect(SentryAuth.key(inHeader: header) == key)
    }

    @Test(arguments: ["Bearer abc", "Sentry sentry_key=", "Sentry sentry_version=7", "Sentry", ""])
    func aHeaderWithoutAKeyHasNone(header: String) {
        #expect(SentryAuth.key(inHeader: header) == nil)
    }
}
