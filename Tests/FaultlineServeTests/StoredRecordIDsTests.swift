import Testing

@testable import FaultlineServe

/// serve remembers the ids of the records it stored, the most recent first to stay, and those being stored: a record
/// sent again is a duplicate, one sent while another request stores it is in flight, and one given up can be sent again.
@Suite struct StoredRecordIDsTests {
    @Test func aRecordIsClaimedOnceAndStoredOnceItIsKept() {
        var ids = StoredRecordIDs(remembering: [], capacity: 10)
        #expect(ids.claim("a") == .claimed)
        #expect(ids.claim("a") == .inFlight)
        ids.settle("a", kept: true)
        #expect(ids.claim("a") == .stored)
    }

    @Test func aRecordGivenUpCanBeClaimedAgain() {
        var ids = StoredRecordIDs(remembering: [], capacity: 10)
        #expect(ids.claim("a") == .claimed)
        ids.settle("a", kept: false)
        #expect(ids.claim("a") == .claimed)
    }

    @Test func theOldestIdsAreForgottenFirst() {
        // Given the ids a log held at start, in the order they were stored, past the capacity
        var ids = StoredRecordIDs(remembering: ["a", "b", "c", "d"], capacity: 3)
        // Then the last three are remembered
        #expect(ids.claim("a") == .claimed)
        #expect(["b", "c", "d"].map { ids.claim($0) } == [.stored, .stored, .stored])
        // And a new one kept forgets the oldest
        ids.settle("a", kept: true)
        #expect(ids.claim("b") == .claimed)
        #expect(["c", "d", "a"].map { ids.claim($0) } == [.stored, .stored, .stored])
    }
}
