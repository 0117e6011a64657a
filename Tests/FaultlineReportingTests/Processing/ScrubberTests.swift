import FaultlineReporting
import Foundation
import Testing

@Suite struct ScrubberTests {
    let scrubber = Scrubber()

    @Test func credentialHeadersKeepTheirNameButLoseTheirValue() {
        let headers = scrubber.headers([
            "Authorization": "Bearer s3cr3t", "Cookie": "sid=s3cr3t", "X-Api-Key": "s3cr3t", "xi-api-key": "s3cr3t",
            "X-Amz-Security-Token": "s3cr3t", "Accept": "application/json",
        ])

        #expect(headers["authorization"] == "[Filtered]")
        #expect(headers["cookie"] == "[Filtered]")
        #expect(headers["x-api-key"] == "[Filtered]")
        #expect(headers["xi-api-key"] == "[Filtered]")
        #expect(headers["x-amz-security-token"] == "[Filtered]")
        #expect(headers["accept"] == "application/json")
    }

    @Test func onlyTheValuesOfSensitiveQueryItemsAreRemoved() {
        let url = URL(
            string: "https://user:pw@api.test/v1/users/42?access_token=a1b2c3d4&page=2&refresh_token=d4e5f6g7"
                + "&token_count=5&author=ana#top")!

        let (scrubbed, query) = scrubber.url(url)

        #expect(scrubbed == "https://api.test/v1/users/42")
        #expect(query == "access_token=[Filtered]&page=2&refresh_token=[Filtered]&token_count=5&author=ana")
    }

    @Test(arguments: [
        "https://user:pw@api.test/v1/users/42?access_token=a1b2c3d4&page=2&refresh_token=d4e5f6g7#top",
        "https://user@api.test:8443/a@b/c?x=1",
        "http://[::1]:8080/v1?password&q=a%20b&token=x%3Dy",
        "https://api.test/v1/search?q=a=b&&page=&api%5Fkey=k9x8y7z6",
        "https://api.test/v1/users?",
        "https://api.test/v1/users#frag?not=query",
        "https://api.test",
        "https://u:p@api.test?secret=1",
        "https://api.test/p%20q/r?Authorization=Bearer%20x",
        "file:///tmp/a?b=c",
        "mailto:ana@example.com?subject=hi",
    ])
    func urlsAreScrubbedAsURLComponentsTakesThemApart(_ text: String) throws {
        let url = try #require(URL(string: text))
        var components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: true))
        let items = components.percentEncodedQueryItems
        (components.user, components.password, components.query, components.fragment) = (nil, nil, nil, nil)
        let query = items?.map { item in
            // The names of credentials among these: their values are none of them ordinary (a plain word, a small
            // number), which a sensitive name other than a password's or a secret's keeps.
            let sensitive = [
                "access_token", "refresh_token", "password", "token", "api_key", "secret", "Authorization",
            ]
            .contains(item.name.removingPercentEncoding ?? item.name)
            return (sensitive ? Scrubber.filtered : item.value).map { "\(item.name)=\($0)" } ?? item.name
        }.joined(separator: "&")

        let scrubbed = scrubber.url(url)

        #expect(scrubbed.url == components.string)
        #expect(scrubbed.queryString == query)
    }

    @Test func aURLRelativeToABaseIsScrubbedWhole() throws {
        let base = try #require(URL(string: "https://user:pw@api.test/v1/"))
        let url = try #require(URL(string: "users/42?token=a1b2c3d4", relativeTo: base))

        let scrubbed = scrubber.url(url)

        #expect(scrubbed.url == "https://api.test/v1/users/42")
        #expect(scrubbed.queryString == "token=[Filtered]")
    }

    @Test func jsonBodyKeysAreFilteredAtAnyDepth() {
        let body = Data(
            #"{"password":"p","profile":{"refreshToken":"r3fr-9f8a","nickname":"kim"},"items":[{"api_key":"k3-8d7c","n":1}]}"#
                .utf8)

        let scrubbed = scrubber.body(body, contentType: "application/json")

        #expect(
            scrubbed == [
                "password": "[Filtered]", "profile": ["refreshToken": "[Filtered]", "nickname": "kim"],
                "items": [["api_key": "[Filtered]", "n": 1]],
            ])
    }

    @Test func namesCountByTheirWordsAndOrdinaryValuesOfSensitiveNamesAreKept() {
        // Given data whose names hold sensitive terms as words, in compounds, and inside other words
        let data: [String: JSONValue] = [
            "apiKey": "k3-8d7c6b5a", "x-api-key": "AIzaSyD4", "stripetoken": "tok_1N3x8", "mysql_pwd": "p",
            "oauth": "ya29.a0AfH6", "jsessionid": "8F3A2C1D9E", "otp": 123_456, "credentials": ["user": "ana"],
            "token_count": 5, "auth": "ok", "author": "Ingrid Vasquez-Holm", "tokenizer": "bert-base-uncased-v2",
            "keyboard_layout": "dvorak-programmer", "inside": "a1b2c3d4e5", "monkey": "a1b2c3d4e5",
            "session": ["id": "3f2a9c1e-77b0-4d3c-9e1f-0a9b8c7d6e5f", "count": 12],
        ]

        // When they are scrubbed
        let scrubbed = scrubber.data(data)

        // Then the credentials are filtered, a secret's whole, a sensitive name's number of six digits too
        for name in ["apiKey", "x-api-key", "stripetoken", "mysql_pwd", "oauth", "jsessionid", "otp", "credentials"] {
            #expect(scrubbed[name] == "[Filtered]", "\(name)")
        }
        // And a UUID, an id rather than a credential, stays
        #expect(scrubbed["session"] == data["session"])
        // And a name about a secret, not of it, keeps its value
        let about: [String: JSONValue] = [
            "password_rules": "min-12-digit", "passwordPolicy": "nist-800-63b", "tokenTtl": "PT15M",
            "secretary_name": "Ottilie Brandtner", "passwordless_enabled": "magic-link-v2",
        ]
        #expect(scrubber.data(about) == about)
        // And the look-alikes read as written
        for name in ["token_count", "auth", "author", "tokenizer", "keyboard_layout", "inside", "monkey"] {
            #expect(scrubbed[name] == data[name], "\(name)")
        }
    }

    @Test func sentrysSettingsByTheirNamesDecideWhatIsFiltered() {
        // Given Sentry's settings: additional sensitive fields, safe fields and IP addresses scrubbed
        let scrubber = Scrubber(
            rules: ScrubRules(sensitiveFields: ["order_ref"], excludeFields: ["password_hint"], scrubIpAddresses: true))
        let data: [String: JSONValue] = [
            "Order_Ref": "ORD-7731", "password_hint": "first pet", "password": "hunter2", "note": "from 10.0.3.17",
        ]

        // When data and a text are scrubbed
        let scrubbed = scrubber.data(data)

        // Then a sensitive field is filtered, a safe one kept, and IP addresses taken out of texts
        #expect(scrubbed["Order_Ref"] == "[Filtered]")
        #expect(scrubbed["password_hint"] == "first pet")
        #expect(scrubbed["password"] == "[Filtered]")
        #expect(
            scrubber.text("from 10.0.3.17 and 2001:db8::8a2e:370:7334, v1.2.3")
                == "from [Filtered] and [Filtered], v1.2.3")
        #expect(Scrubber().text("from 10.0.3.17") == "from 10.0.3.17")

        // And without the default scrubbers only the sensitive fields are
        let bare = Scrubber(rules: ScrubRules(sensitiveFields: ["order_ref"], scrubDefaults: false))
        #expect(bare.data(data)["password"] == "hunter2")
        #expect(bare.data(data)["Order_Ref"] == "[Filtered]")
        #expect(bare.headers(["Authorization": "Bearer 4f9a8c7e6d5b"])["authorization"] == "Bearer 4f9a8c7e6d5b")
        #expect(bare.text("token=4f9a8c7e6d5b") == "token=4f9a8c7e6d5b")
    }

    @Test func formBodiesAreFilteredAndOtherBodiesOnlyDescribed() {
        let form = scrubber.body(
            Data("grant_type=refresh_token&refresh_token=a1b2c3d4".utf8),
            contentType: "application/x-www-form-urlencoded")
        let binary = scrubber.body(Data([0xFF, 0x00, 0x12]), contentType: "application/octet-stream")

        #expect(form == ["grant_type": "refresh_token", "refresh_token": "[Filtered]"])
        #expect(binary == "[3 bytes of application/octet-stream]")
        #expect(scrubber.body(Data(), contentType: nil) == nil)
    }

    @Test func aCustomRuleCatchesNamesTheTermsMiss() {
        let scrubber = Scrubber(rules: ScrubRules(isSensitiveName: { $0.hasPrefix("x-tenant") }))

        #expect(scrubber.headers(["X-Tenant-Id": "acme"])["x-tenant-id"] == "[Filtered]")
        #expect(scrubber.headers(["X-Trace": "t"])["x-trace"] == "t")
    }

    @Test func aBodyOverTheLimitIsDescribedNotKept() {
        let scrubber = Scrubber(rules: ScrubRules(maxBodySize: 64))
        let body = Data(#"{"note":"\#(String(repeating: "x", count: 200))"}"#.utf8)

        #expect(
            scrubber.body(body, contentType: "application/json") == "[211 bytes of application/json, over the limit]")
    }
}
