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
        let url = URL(string: "https://user:pw@api.test/v1/users/42?access_token=abc&page=2&refresh_token=def#top")!

        let (scrubbed, query) = scrubber.url(url)

        #expect(scrubbed == "https://api.test/v1/users/42")
        #expect(query == "access_token=[Filtered]&page=2&refresh_token=[Filtered]")
    }

    @Test(arguments: [
        "https://user:pw@api.test/v1/users/42?access_token=abc&page=2&refresh_token=def#top",
        "https://user@api.test:8443/a@b/c?x=1",
        "http://[::1]:8080/v1?password&q=a%20b&token=x%3Dy",
        "https://api.test/v1/search?q=a=b&&page=&api%5Fkey=k",
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
            let sensitive = scrubber.rules.isSensitive(item.name.removingPercentEncoding ?? item.name)
            return (sensitive ? Scrubber.filtered : item.value).map { "\(item.name)=\($0)" } ?? item.name
        }.joined(separator: "&")

        let scrubbed = scrubber.url(url)

        #expect(scrubbed.url == components.string)
        #expect(scrubbed.queryString == query)
    }

    @Test func aURLRelativeToABaseIsScrubbedWhole() throws {
        let base = try #require(URL(string: "https://user:pw@api.test/v1/"))
        let url = try #require(URL(string: "users/42?token=abc", relativeTo: base))

        let scrubbed = scrubber.url(url)

        #expect(scrubbed.url == "https://api.test/v1/users/42")
        #expect(scrubbed.queryString == "token=[Filtered]")
    }

    @Test func jsonBodyKeysAreFilteredAtAnyDepth() {
        let body = Data(
            #"{"password":"p","profile":{"refreshToken":"r","nickname":"kim"},"items":[{"api_key":"k","n":1}]}"#.utf8)

        let scrubbed = scrubber.body(body, contentType: "application/json")

        #expect(
            scrubbed == [
                "password": "[Filtered]", "profile": ["refreshToken": "[Filtered]", "nickname": "kim"],
                "items": [["api_key": "[Filtered]", "n": 1]],
            ])
    }

    @Test func formBodiesAreFilteredAndOtherBodiesOnlyDescribed() {
        let form = scrubber.body(
            Data("grant_type=refresh_token&refresh_token=abc".utf8), contentType: "application/x-www-form-urlencoded")
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
