import Testing

@testable import FaultlineRecords

/// Byte strings numbered by first appearance are found again by their bytes, through the table's growth and after it
/// is cleared.
@Suite struct NumberedByteStringsTests {
    @Test func eachStringKeepsTheNumberItWasFirstGiven() {
        // Given ten thousand distinct strings, the empty one and prefixes of one another among them
        let strings = [""] + (0..<10_000).map { "GET /users/\($0)" } + ["GET /users/1", "GET /users/", "GET"]
        var table = NumberedByteStrings()

        // When each is numbered, and numbered again after all of them were
        let first = strings.map { Self.number(of: $0, in: &table) }
        let again = strings.map { Self.number(of: $0, in: &table) }

        // Then the new ones are numbered in order, those met before keep their number, and each number gives the bytes
        #expect(first.prefix(10_001).map(\.number) == Array(0..<10_001))
        #expect(!first.prefix(10_001).contains { !$0.isNew })
        #expect(
            first.suffix(3).map(\.number) == [2, 10_001, 10_002] && first.suffix(3).map(\.isNew) == [false, true, true])
        #expect(again.map(\.number) == first.map(\.number) && !again.contains(where: \.isNew))
        #expect(table.count == 10_003)
        #expect(table.withBytes(of: 5_001) { String(decoding: $0, as: UTF8.self) } == "GET /users/5000")
        #expect(table.withBytes(of: 0) { $0.isEmpty })
    }

    @Test func aClearedTableNumbersFromZeroAgain() {
        var table = NumberedByteStrings()
        for index in 0..<20_000 { _ = Self.number(of: "route \(index)", in: &table) }
        table.removeAll()
        #expect(table.count == 0)
        #expect(Self.number(of: "route 7", in: &table) == (0, true))
        #expect(Self.number(of: "route 8", in: &table) == (1, true))
        #expect(Self.number(of: "route 7", in: &table) == (0, false))
    }

    private static func number(of string: String, in table: inout NumberedByteStrings) -> (number: Int, isNew: Bool) {
        var string = string
        return string.withUTF8 { table.number(of: $0) }
    }
}
