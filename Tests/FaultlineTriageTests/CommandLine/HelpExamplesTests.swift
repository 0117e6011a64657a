import Foundation
import TestSupport
import Testing

/// Every subcommand's help ends with examples, and the examples use only options the command has.
@Suite struct HelpExamplesTests {
    @Test(arguments: [
        "summary", "incident", "issues", "show", "timeline", "tail", "stats", "report", "serve",
    ])
    func aSubcommandsHelpEndsWithExamplesOfItsOwnOptions(command: String) async throws {
        for request in [[command, "--help"], [command, "-h"], ["help", command]] {
            let help = String(decoding: try await BuiltFaultline.run(request), as: UTF8.self)
            let sections = help.components(separatedBy: "\nEXAMPLES:\n")
            #expect(sections.count == 2, "\(request)")
            let examples = sections.last?.split(separator: "\n").filter { $0.hasPrefix("  faultline ") } ?? []
            #expect((2...3).contains(examples.count), "\(request): \(examples)")
            for example in examples {
                #expect(example.hasPrefix("  faultline \(command)"), "\(example)")
                for option in example.split(separator: " ") where option.hasPrefix("-") {
                    #expect(sections[0].contains(" \(option)"), "\(command): \(option) is not in the help")
                }
            }
        }
    }
}
