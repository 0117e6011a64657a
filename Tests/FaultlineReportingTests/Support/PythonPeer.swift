import Foundation
import Testing

/// Runs the repository's Python peer scripts (`Tests/peers/`) with the virtualenv `scripts/setup` creates.
enum PythonPeer {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `script` with `arguments` and returns its standard output.
    static func run(_ script: String, _ arguments: [String]) throws -> Data {
        let python = repository.appendingPathComponent(".venv/bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw Failure(description: "\(python.path) is missing: run scripts/setup to install the Python test peers")
        }
        let path = repository.appendingPathComponent("Tests/peers/\(script)").path
        let outcome = try ExternalProcess.run(python, [path] + arguments)
        guard outcome.status == 0 else { throw Failure(description: "\(script) failed: \(outcome.errors)") }
        return outcome.output
    }
}
