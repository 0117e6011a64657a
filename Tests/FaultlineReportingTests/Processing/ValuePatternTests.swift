import FaultlineReporting
import Foundation
import Testing

/// Secrets inside free text are found by their shape and only they are replaced; look-alikes that are not secrets
/// (ids, routes, versions, Korean text) come back as they were.
@Suite struct ValuePatternTests {
    let scrubber = Scrubber()

    static let jwt =
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJLQUtBT19raW0iLCJleHAiOjE3MzAwMDAwMDB9"
        + ".c2lnbmF0dXJlLXNpZ25hdHVyZS1zaWduYXR1cmU"

    @Test func aJSONWebTokenIsFilteredAndTheWordsAroundItKept() {
        #expect(scrubber.text("invalid token \(Self.jwt)") == "invalid token [Filtered]")
        #expect(
            scrubber.text(#"{"error":{"code":50001,"message":"invalid token \#(Self.jwt)"}}"#)
                == #"{"error":{"code":50001,"message":"invalid token [Filtered]"}}"#)
        // A preview cut after the payload still hides it
        #expect(scrubber.text("jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJraW0i…") == "jwt [Filtered]…")
    }

    @Test func theCredentialAfterBearerTokenOrBasicIsFilteredNotTheScheme() {
        #expect(scrubber.text("Authorization: Bearer 4f9a8c7e6d5b4a39") == "Authorization: Bearer [Filtered]")
        #expect(scrubber.text("Authorization: Basic dXNlcjpodW50ZXIy") == "Authorization: Basic [Filtered]")
        #expect(scrubber.text("rejected token ghx9Q2mLw7Zr (expired)") == "rejected token [Filtered] (expired)")
        // Words after the schemes are no credentials
        for text in [
            #"WWW-Authenticate: Bearer realm="api", error="invalid_token""#, "Basic information is missing",
            "Basic QUJDREVGR0g=", "token expired at 10:00", "Bearer authentication required",
        ] {
            #expect(scrubber.text(text) == text)
        }
    }

    @Test func valuesOfSensitiveKeysAreFilteredInPairsOfEveryNotation() {
        let cases = [
            ("<html>debug: api_key=sk_4f9a8c7e2b</html>", "<html>debug: api_key=[Filtered]</html>"),
            (
                "GET /v1/items?page=2&access_token=abc123&sort=asc",
                "GET /v1/items?page=2&access_token=[Filtered]&sort=asc"
            ),
            (#"{"user":"kim","client_secret": "cs_9d8c7b6a"}"#, #"{"user":"kim","client_secret": "[Filtered]"}"#),
            ("{'password': 'hunter2', 'retries': 3}", "{'password': '[Filtered]', 'retries': 3}"),
            (#"{"pin_password":123456,"ok":true}"#, #"{"pin_password":[Filtered],"ok":true}"#),
            ("X-Auth-Token: 9f8e7d6c5b4a\nAccept: */*", "X-Auth-Token: [Filtered]\nAccept: */*"),
            ("Set-Cookie: sid=8b7c6d5e; Path=/; HttpOnly", "Set-Cookie: [Filtered]; Path=/; HttpOnly"),
            ("Cookie: theme=dark; sid=8b7c6d5e", "Cookie: theme=dark; sid=[Filtered]"),
            (#"db_password = "p@ss word""#, #"db_password = "[Filtered]""#),
        ]
        for (text, expected) in cases {
            #expect(scrubber.text(text) == expected)
        }
        // Unquoted words after a sensitive key are kept when they do not look like credentials
        for text in [
            "token: expired", "session: closed by the server", "page=2&limit=20", "sort=token_count&page=2",
            #"note = "password=" + secrets["local"]"#,
        ] {
            #expect(scrubber.text(text) == text)
        }
    }

    @Test func ordinaryValuesOfSensitiveKeysAreKeptButSecretsAndPasswordsAreNot() {
        // Small numbers and plain words read as written after a key that merely contains a sensitive term
        for text in [
            "token_count=5 exceeded", "auth=ok step=3", "session=3 retries=2", "token=expired", "auth_state=Pending",
            "key_version=-1", "session_ratio=0.25", #"{"session": "closed", "auth": "NONE"}"#,
            "auth_error=invalid_grant",
        ] {
            #expect(scrubber.text(text) == text)
        }
        let cases = [
            // what a credential looks like: digits among letters, mixed case, six digits or more, or long
            ("token=ab12cd", "token=[Filtered]"), ("auth=aBcDeF", "auth=[Filtered]"),
            ("session=123456", "session=[Filtered]"), ("api_key=abcdefghijklmnopq", "api_key=[Filtered]"),
            ("sid=1.2.3", "sid=[Filtered]"),
            // a key naming a password or secret: every value
            ("password=hunter", "password=[Filtered]"), ("db_passwd=7", "db_passwd=[Filtered]"),
            ("pwd=ok", "pwd=[Filtered]"), (#"{"client_secret": "plain"}"#, #"{"client_secret": "[Filtered]"}"#),
        ]
        for (text, expected) in cases {
            #expect(scrubber.text(text) == expected)
        }
        // a name the app's own rule gives is a secret too
        let custom = Scrubber(rules: ScrubRules(isSensitiveName: { $0 == "pin" }))
        #expect(custom.text("pin=1234") == "pin=[Filtered]")
    }

    @Test func aURLKeepsItsUserButNotItsPassword() {
        #expect(
            scrubber.text("could not connect to postgres://app:hunter2@db.internal:5432/app")
                == "could not connect to postgres://app:[Filtered]@db.internal:5432/app")
        for text in ["git@github.com:org/repo.git", "mail kim@example.com", "https://o1@ingest.sentry.io/42"] {
            #expect(scrubber.text(text) == text)
        }
    }

    @Test func aPrivateKeyKeepsItsMarkersButNotItsBody() {
        let pem = """
            config: -----BEGIN RSA PRIVATE KEY-----
            MIIEowIBAAKCAQEA7bq6
            -----END RSA PRIVATE KEY----- loaded
            """
        #expect(
            scrubber.text(pem)
                == "config: -----BEGIN RSA PRIVATE KEY-----[Filtered]-----END RSA PRIVATE KEY----- loaded")
        #expect(scrubber.text("-----BEGIN PRIVATE KEY-----MIIEvQIBADAN") == "-----BEGIN PRIVATE KEY-----[Filtered]")
        let certificate = "-----BEGIN CERTIFICATE-----MIIDdzCCAl+gAwIBAgIE-----END CERTIFICATE-----"
        #expect(scrubber.text(certificate) == certificate)
    }

    @Test func cardNumbersThatPassLuhnAreFilteredOtherDigitRunsKept() {
        #expect(scrubber.text("card 4111 1111 1111 1111 declined") == "card [Filtered] declined")
        #expect(scrubber.text("pan=5500-0055-5555-5559.") == "pan=[Filtered].")
        #expect(scrubber.text("amex 378282246310005") == "amex [Filtered]")
        for text in [
            "card 4111 1111 1111 1112 declined",  // fails Luhn
            "at 1714567890123 ms",  // a millisecond timestamp
            "order 41111111111111111111",  // 20 digits
            "id ab4111111111111111", "v4111111111111111",
        ] {
            #expect(scrubber.text(text) == text)
        }
    }

    @Test func lookAlikesThatAreNoSecretsAreLeftIntact() {
        let corpus = [
            "123e4567-e89b-12d3-a456-426614174000", "42345678-1234-5234-9234-123456789012",
            "0123456789abcdef0123456789abcdef", "4b1e8f9a6c3d2e7f8a9b0c1d2e3f4a5b",
            "GET /boleto/users/{id}", "/users/{id}/travels/{travelId}", "POST /v1/tokens/{token_id}/refresh",
            "파일 업로드에 실패하였습니다.", "인증 토큰이 만료되었습니다. 다시 로그인해 주세요.",
            "aW1hZ2UtcHJvZmlsZQ==.png", "eyJpZCI6MTJ9.png", "profile_aGVsbG8gd29ybGQ.jpg",
            "4.2.0", "boleto@2.4.1 (310)", "build 20240501.3", "iOS 17.4.1 (21E236)",
            "2026-11-23T09:00:00.123Z", "2026-11-23 09:00:00 +0900", "1714567890", "took 1234 ms",
            "phone 010-1234-5678", "kim@example.com", "192.168.0.10:8080", "Content-Type: application/json",
            "data.profileImage: expected String, found null", "Request-Id: 7c1f0a9e", "retry in 30s (attempt 2/3)",
            "x == token", "key_count: 3", "the token is invalid", "token_count=5 exceeded", "auth=ok step=3",
            "session=3", "retries=2",
        ]
        for text in corpus {
            #expect(scrubber.text(text) == text)
        }
    }

    @Test func scrubbingTwiceChangesNothingMore() {
        let text = """
            invalid token \(Self.jwt); api_key=sk_4f9a8c7e2b; "password": "hunter2"; Bearer 4f9a8c7e6d5b4a39; \
            https://app:hunter2@db; card 4111111111111111
            """
        let once = scrubber.text(text)

        #expect(once.components(separatedBy: "[Filtered]").count == 7)
        #expect(scrubber.text(once) == once)
    }

    @Test func textWithoutSecretsComesBackWithoutACopy() {
        let message = String(repeating: "GET /boleto/users/{id} answered 404 with code 40401. ", count: 4)

        let scrubbed = scrubber.text(message)

        let original = message.utf8.withContiguousStorageIfAvailable { $0.baseAddress }
        let returned = scrubbed.utf8.withContiguousStorageIfAvailable { $0.baseAddress }
        #expect(original != nil && original == returned)
    }

    @Test func patternsAreConfiguredLikeTheKeyRules() {
        let card = "card 4111111111111111"
        let noCards = Scrubber(rules: ScrubRules(valuePatterns: ValuePattern.defaults.subtracting([.cardNumber])))
        let prefixed = Scrubber(rules: ScrubRules(valuePatterns: [.prefixedToken("sk_live_")]))
        let custom = Scrubber(
            rules: ScrubRules(scrubText: { $0.replacingOccurrences(of: "KAKAO_kim", with: "[Filtered]") }))
        let off = Scrubber(rules: ScrubRules(valuePatterns: []))
        let tenant = Scrubber(rules: ScrubRules(isSensitiveName: { $0 == "tenant" }))

        #expect(noCards.text(card) == card)
        #expect(prefixed.text("key sk_live_51H8a9b rejected") == "key sk_live_[Filtered] rejected")
        #expect(prefixed.text(card) == card)
        #expect(custom.text("user KAKAO_kim, card 4111111111111111") == "user [Filtered], card [Filtered]")
        #expect(off.text("invalid token \(Self.jwt)") == "invalid token \(Self.jwt)")
        #expect(tenant.text("tenant=acme-corp") == "tenant=[Filtered]")
    }

    @Test func everyStringOfAJSONValueIsScrubbedAndItsKeysKept() {
        let value: JSONValue = [
            "note": .string("retry with token \(Self.jwt)"),
            "attempts": [["url": "https://u:p4ss@api.test/x"], "4111111111111111", 3],
            "token": "plain",
        ]

        #expect(
            scrubber.texts(in: value) == [
                "note": "retry with token [Filtered]",
                "attempts": [["url": "https://u:[Filtered]@api.test/x"], "[Filtered]", 3],
                "token": "plain",
            ])
    }
}
