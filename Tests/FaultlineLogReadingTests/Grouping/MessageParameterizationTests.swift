import Testing

@testable import FaultlineLogReading

/// Messages normalised as Sentry's parameterization does, with the cases of its own tests.
@Suite struct MessageParameterizationTests {
    @Test func variableValuesBecomePlaceholders() {
        let cases = [
            ("blah test@email.com had a problem", "blah <email> had a problem"),
            ("blah http://some.email.com had a problem", "blah <url> had a problem"),
            ("blah 0.0.0.0 had a problem", "blah <ip> had a problem"),
            ("7c1811ed-e98f-4c9c-a9f9-58c757ff494f", "<uuid>"),
            ("5fc35719b9cf96ec602dbc748ff31c587a46961d", "<sha1>"),
            ("0751007cd28df267e8e051b51f918c60", "<md5>"),
            ("at 2024-02-20T22:16:36", "at <date>"), ("at 2006-01-02 15:04:05", "at <date>"),
            ("at 3:04PM", "at <date>"), ("at 15:04:05.123+09:00", "at <date>"), ("on 2024-02-20.", "on <date>."),
            ("after 1ms 23ms", "after <duration> <duration>"),
            ("took 1.234s and 56s", "took <duration> and <duration>"),
            ("0x9af8c3b", "<hex>"), ("0.23", "<float>"), ("-1.5 left", "<float> left"), ("23", "<int>"),
            ("retry -3", "retry <int>"), ("utf-8", "utf-<int>"), (#"b="1""#, "b=<quoted_str>"), ("a=true", "a=<bool>"),
            ("A quick brown fox jumped over the lazy dog", "A quick brown fox jumped over the lazy dog"),
            ("주문 123 실패", "주문 <int> 실패"), ("v2 of item42", "v2 of item42"),
        ]
        for (text, expected) in cases {
            #expect(MessageParameterization.normalized(text) == expected, "\(text)")
        }
    }

    @Test func onlyTheFirstTwoLinesThatAreNotBlankCount() {
        #expect(MessageParameterization.normalized("one\n\ntwo\nthree") == "one\ntwo...")
        #expect(MessageParameterization.normalized("one\ntwo") == "one\ntwo")
    }
}
