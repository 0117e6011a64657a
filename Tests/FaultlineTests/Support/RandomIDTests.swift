import Testing

@testable import Faultline

/// Event and request ids: version 4 UUIDs as 32 hex digits, from the system's generator or the seeded one a reporter
/// draws them from.
@Suite struct RandomIDTests {
    @Test func seededIdsAreVersionFourUUIDsAndDoNotRepeat() {
        var generator = IdentifierGenerator()
        var seen = Set<String>()
        for _ in 0..<100_000 {
            let id = RandomID.make(using: &generator)
            #expect(id.utf8.count == 32)
            #expect(id.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) })
            #expect(Array(id)[12] == "4")
            #expect("89ab".contains(Array(id)[16]))
            seen.insert(id)
        }
        #expect(seen.count == 100_000)
    }

    @Test func generatorsSeededApartDrawDifferentIds() {
        var first = IdentifierGenerator()
        var second = IdentifierGenerator()
        #expect(RandomID.make(using: &first) != RandomID.make(using: &second))
    }

    @Test func systemIdsHaveTheSameForm() {
        let id = RandomID.make()
        #expect(id.utf8.count == 32)
        #expect(Array(id)[12] == "4")
    }
}
