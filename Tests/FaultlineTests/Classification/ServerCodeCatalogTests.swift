import Faultline
import Testing

@Suite struct ServerCodeCatalogTests {
    let catalog = ServerCodeCatalog(
        ranges: [40000...40099: .badRequest, 40400...40499: .notFound],
        exceptions: [40091: .notFound, "E05": .unauthorized])

    @Test func aCodeTakesTheCategoryOfItsRange() {
        #expect(catalog.category(for: 40013) == .badRequest)
        #expect(catalog.category(for: 40492) == .notFound)
    }

    @Test func anExceptionWinsOverItsRange() {
        #expect(catalog.category(for: 40091) == .notFound)
    }

    @Test func stringCodesAreCategorisedOnlyByExceptions() {
        #expect(catalog.category(for: "E05") == .unauthorized)
        #expect(catalog.category(for: "E06") == nil)
    }

    @Test func aCodeOutsideEveryRangeHasNoCategory() {
        #expect(catalog.category(for: 50001) == nil)
        #expect(ServerCodeCatalog.empty.category(for: 40013) == nil)
    }
}
