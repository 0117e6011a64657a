import FaultlineReporting
import Foundation
import Testing

/// Events that arrive as JSON (from other SDKs, at `faultline serve`) have the secrets in their string values
/// filtered, with everything else byte for byte as it came.
@Suite struct ScrubberJSONTests {
    let scrubber = Scrubber()
    static let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbmEifQ.c2lnbmF0dXJlLXNpZ25hdHVyZQ"

    @Test func stringValuesAreScrubbedAndTheRestKeptByteForByte() throws {
        let event = Data(
            """
            {"event_id": "0123456789abcdef0123456789abcdef", "level":"error",
             "exception":{"values":[{"type":"PermissionError","value":"invalid token \(Self.jwt)"}]},
             "extra":{"sys.argv":["app.py","--password=hunter2"],"count":4111111111111111},
             "tags":{"route":"/users/{id}"}}
            """.utf8)

        let scrubbed = try #require(scrubber.scrubbedTexts(inJSON: event))

        #expect(
            String(decoding: scrubbed, as: UTF8.self)
                == """
                {"event_id": "0123456789abcdef0123456789abcdef", "level":"error",
                 "exception":{"values":[{"type":"PermissionError","value":"invalid token [Filtered]"}]},
                 "extra":{"sys.argv":["app.py","--password=[Filtered]"],"count":4111111111111111},
                 "tags":{"route":"/users/{id}"}}
                """)
    }

    @Test func valuesAreFilteredByTheirPlaceInTheEvent() throws {
        // Given an event as other SDKs send it, with secrets named by keys, headers given as pairs, cookies, a message
        // with its parameters, a frame's path and debug images
        let event = Data(
            """
            {"message":{"message":"%s paid","params":["ana.kim@mail.example","4111 1111 1111 1111"]},
            "request":{"headers":[["X-Api-Key","AIzaSyD4x9"],["Accept","*/*"]],"cookies":"theme=dark; sessionid=ok; csrftoken=k3y8fq2z",
            "data":{"user":{"password":"p","token_count":5,"tokenizer":"bert-base-v2"},"variables":{"auth":"ok"}}},
            "contexts":{"db":{"credentials":{"user":"ana","pass":"x"}},"response":{"headers":{"X-Refresh-Token":"rt_9f8e7d6c5b"}}},
            "extra":{"mysql_pwd":123456789,"accounts":[{"password":"hunter2","id":7}],"note":"ssn 123-45-6789 iban DE89370400440532013000","home":"/Users/ana/Library/x"},
            "exception":{"values":[{"stacktrace":{"frames":[{"abs_path":"/home/deploy/app/main.py","vars":{"api_token":"tok_1N3x8q"}}]}}]},
            "debug_meta":{"images":[{"code_file":"/Users/ana/Library/Developer/App.app/App","debug_id":"x"}]},
            "sdk":{"packages":[{"name":"pypi:pyjwt","version":"2.8.0"}]}}
            """.utf8)

        // When it is scrubbed
        let scrubbed = try #require(scrubber.scrubbedTexts(inJSON: event))

        // Then the secrets are filtered where they are, the rest kept as sent
        #expect(
            String(decoding: scrubbed, as: UTF8.self)
                == """
                {"message":{"message":"%s paid","params":["[Filtered]","[Filtered]"]},
                "request":{"headers":[["X-Api-Key","[Filtered]"],["Accept","*/*"]],"cookies":"theme=dark; sessionid=[Filtered]; csrftoken=[Filtered]",
                "data":{"user":{"password":"[Filtered]","token_count":5,"tokenizer":"bert-base-v2"},"variables":{"auth":"ok"}}},
                "contexts":{"db":{"credentials":"[Filtered]"},"response":{"headers":{"X-Refresh-Token":"[Filtered]"}}},
                "extra":{"mysql_pwd":"[Filtered]","accounts":[{"password":"[Filtered]","id":7}],"note":"ssn [Filtered] iban [Filtered]","home":"/Users/[Filtered]/Library/x"},
                "exception":{"values":[{"stacktrace":{"frames":[{"abs_path":"/home/deploy/app/main.py","vars":{"api_token":"[Filtered]"}}]}}]},
                "debug_meta":{"images":[{"code_file":"/Users/[Filtered]/Library/Developer/App.app/App","debug_id":"x"}]},
                "sdk":{"packages":[{"name":"pypi:pyjwt","version":"2.8.0"}]}}
                """)
    }

    @Test func onlyATwoScalarArrayIsAPairSoPairsNestedDeepAreReadOnce() throws {
        // Given a pair of scalars, and arrays nested as deep as the parser allows, each a string and an array
        let pair = Data(
            #"{"headers":[["X-Auth-Token","a1b2c3d4e5"]],"data":[["password",["kept-as-an-element"]]]}"#.utf8)
        let depth = JSONValue.maximumDepth - 1
        let nested = Data(
            (String(repeating: #"["password","#, count: depth) + "true" + String(repeating: "]", count: depth)).utf8)

        // When they are scrubbed
        let scrubbed = try #require(scrubber.scrubbedTexts(inJSON: pair))

        // Then the pair's value is named by its first element, an array after a string is no pair's value, and the
        // nested arrays are read as elements, none replaced
        #expect(
            String(decoding: scrubbed, as: UTF8.self)
                == #"{"headers":[["X-Auth-Token","[Filtered]"]],"data":[["password",["kept-as-an-element"]]]}"#)
        #expect(scrubber.scrubbedTexts(inJSON: nested) == nil)
    }

    @Test func escapedStringsAreDecodedBeforeTheScanAndWrittenBackEscaped() throws {
        let event = Data(#"{"message":"page:\n<pre>\"api_key\": \"sk_4f9a8c7e2b\"\u000a\u00e9t\u00e9</pre>"}"#.utf8)

        let scrubbed = try #require(scrubber.scrubbedTexts(inJSON: event))

        let message = try JSONDecoder().decode([String: String].self, from: scrubbed)["message"]
        #expect(message == "page:\n<pre>\"api_key\": \"[Filtered]\"\nété</pre>")
    }

    @Test func keysAreNeverChangedAndCleanEventsAreNotCopied() {
        let keyOnly = Data(#"{"api_key=sk_4f9a8c7e2b": true, "note": "GET /users/{id} 404"}"#.utf8)
        let clean = Data(#"{"message":"파일 업로드에 실패하였습니다.","release":"shop@4.2.0 (310)"}"#.utf8)

        #expect(scrubber.scrubbedTexts(inJSON: keyOnly) == nil)
        #expect(scrubber.scrubbedTexts(inJSON: clean) == nil)
        #expect(scrubber.scrubbedTexts(inJSON: Data(#"{"message":"token=abc"#.utf8)) == nil)
        #expect(
            Scrubber(rules: ScrubRules(valuePatterns: [])).scrubbedTexts(inJSON: Data(#"["token=a1"]"#.utf8)) == nil)
    }

    @Test func anObjectReadInOnePassIsScrubbedAsItsTextsAre() throws {
        // Given objects with secrets in plain and escaped strings, nested, in pairs, and none at all
        let events = [
            """
            {"event_id": "0123456789abcdef0123456789abcdef", "level":"error",
             "exception":{"values":[{"type":"PermissionError","value":"invalid token \(Self.jwt)"}]},
             "extra":{"sys.argv":["app.py","--password=hunter2"],"count":4111111111111111},
             "tags":[["http.route","/users/{id}?api_key=sk_4f9a8c7e2b"]]}
            """,
            #"{"message":"page:\n<pre>\"api_key\": \"sk_4f9a8c7e2b\"\u000a\u00e9t\u00e9</pre>"}"#,
            #"{"api_key=sk_4f9a8c7e2b": true, "note": "GET /users/{id} 404"}"#,
            #"{"message":"파일 업로드에 실패하였습니다.","release":"shop@4.2.0 (310)"}"#,
        ].map { Data($0.utf8) }

        for event in events {
            // When each is read in one pass
            let object = try #require(try scrubber.scrubbedObject(parsing: event, members: ["tags"]))

            // Then its text is the one its texts scrubbed give, byte for byte
            #expect(object.bytes == scrubber.scrubbedTexts(inJSON: event) ?? event)
        }

        // And without value patterns it is read as sent
        let unscrubbed = try #require(
            try Scrubber(rules: ScrubRules(valuePatterns: [])).scrubbedObject(parsing: events[0], members: []))
        #expect(unscrubbed.bytes == events[0])
    }
}
