import FaultlineFuzzTargets
import Foundation
import TestSupport
import Testing

/// Every input of the committed fuzz corpora, seeds and findings alike, runs through its target in the regular suite:
/// a parser that crashes or disagrees again on an input a fuzzer once found fails here, without a fuzzer.
@Suite struct FuzzCorpusTests {
    @Test(arguments: FuzzTarget.allCases)
    func everyCorpusInputRunsCleanThroughItsTarget(_ target: FuzzTarget) throws {
        let directory = Repository.root.appendingPathComponent("Tests/Fuzz/Corpus/\(target.rawValue)")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(!names.isEmpty, "\(target.rawValue) has a corpus")
        for name in names {
            let input = try Data(contentsOf: directory.appendingPathComponent(name))
            #expect(throws: Never.self, "\(target.rawValue)/\(name)") { try target.run(input) }
        }
    }
}
