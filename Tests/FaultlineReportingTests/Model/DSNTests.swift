import FaultlineReporting
import Foundation
import Testing

@Suite struct DSNTests {
    @Test func aDSNNamesItsEnvelopeEndpointAndKey() throws {
        let dsn = try DSN("https://0123456789abcdef0123456789abcdef@o1.ingest.sentry.io/4504")

        #expect(dsn.publicKey == "0123456789abcdef0123456789abcdef")
        #expect(dsn.projectID == "4504")
        #expect(dsn.envelopeURL.absoluteString == "https://o1.ingest.sentry.io/api/4504/envelope/")
        #expect(
            dsn.authHeader(client: "faultline.swift/0.1.0")
                == "Sentry sentry_version=7, sentry_client=faultline.swift/0.1.0, sentry_key=0123456789abcdef0123456789abcdef"
        )
    }

    @Test func thePortAndPathPrefixAreKept() throws {
        let dsn = try DSN("http://public:secret@127.0.0.1:9000/sentry/relay/42")

        #expect(dsn.envelopeURL.absoluteString == "http://127.0.0.1:9000/sentry/relay/api/42/envelope/")
        #expect(dsn.secretKey == "secret")
        #expect(dsn.authHeader(client: "c/1").hasSuffix("sentry_key=public, sentry_secret=secret"))
        #expect(dsn.description == "http://public@127.0.0.1:9000/sentry/relay/42")
    }

    @Test func anIPv6HostIsKeptInItsBrackets() throws {
        let dsn = try DSN("http://public@[::1]:9000/42")

        #expect(dsn.host == "[::1]")
        #expect(dsn.envelopeURL.absoluteString == "http://[::1]:9000/api/42/envelope/")
        #expect(try DSN(dsn.description) == dsn)
    }

    @Test(arguments: [
        ("", "it is not a URL"),
        ("ftp://key@host/1", "the scheme must be http or https"),
        ("https://host/1", "it has no public key before the @"),
        ("https://key@host/", "the last path segment must be the numeric project id"),
        ("https://key@host/project", "the last path segment must be the numeric project id"),
        ("http://key@127.0.0.1:99999/1", "the port must be from 1 to 65535"),
        ("http://key@127.0.0.1:0/1", "the port must be from 1 to 65535"),
        // (found by the fuzzer: the decoded host, `o1.ingest]995b.sentry.io`, could not be read back)
        (
            "https://key@o1.ingest%5d995b.sentry.io/42",
            "the host may hold only letters, digits and - . _ ~ (and an IPv6 address in brackets)"
        ),
        (
            "https://key@[::1:g]/42",
            "the host may hold only letters, digits and - . _ ~ (and an IPv6 address in brackets)"
        ),
    ])
    func anInvalidDSNSaysWhatIsWrong(dsn: String, reason: String) {
        let error = #expect(throws: DSN.ParseError.self) { try DSN(dsn) }
        #expect(error?.reason == reason)
        #expect(error?.description.contains("Expected scheme://publickey@host") == true)
    }
}
