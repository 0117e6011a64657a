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
        let process = Process()
        process.executableURL = python
        process.arguments = [repository.appendingPathComponent("Tests/peers/\(script)").path] + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(script) failed: \(String(decoding: message, as: UTF8.self))")
        }
        return data
    }
}
