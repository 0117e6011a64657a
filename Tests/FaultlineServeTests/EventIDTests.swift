import Testing

@testable import FaultlineServe

/// Event ids are read as Sentry's ingest reads UUIDs, and written one way.
@Suite struct EventIDTests {
    @Test(arguments: [
        "0123456789abcdef0123456789abcdef", "0123456789ABCDEF0123456789ABCDEF", "01234567-89ab-cdef-0123-456789abcdef",
        "{01234567-89AB-CDEF-0123-456789ABCDEF}", "urn:uuid:01234567-89ab-cdef-0123-456789abcdef",
        "URN:UUID:01234567-89AB-CDEF-0123-456789ABCDEF",
    ])
    func aUUIDInAnyOfItsFormsIs32LowercaseHexDigits(text: String) {
        #expect(EventID.normalized(text) == "0123456789abcdef0123456789abcdef")
    }

    @Test(arguments: [
        "", "e1", "0123456789abcdef0123456789abcde", "0123456789abcdef0123456789abcdeg",
        "0123456789abcdef0123456789abcdef0", "012345678-9ab-cdef-0123-456789abcdef",
        "{0123456789abcdef0123456789abcdef}",
        "urn:uuid:0123456789abcdef0123456789abcdef", "0123456789abcdef0123456789abcd\u{1B}[",
        "０123456789abcdef0123456789abcdef",
    ])
    func anythingElseIsNoUUID(text: String) {
        #expect(EventID.normalized(text) == nil)
    }
}
