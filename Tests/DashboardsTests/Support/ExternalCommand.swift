import Foundation
import Testing

/// A program installed on the machine (lnav, chromium, Python peers), run to completion with an environment of the
/// test's own.
enum ExternalCommand {
    /// What `executable arguments` printed on standard output and error, together; the test fails when the program
    /// is missing or exits with a status other than 0.
    @discardableResult
    static func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws -> String {
        try #require(
            FileManager.default.isExecutableFile(atPath: executable.path),
            "\(executable.path) is missing: run scripts/setup")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin"].merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(executable.lastPathComponent) \(arguments): \(text)")
        return text
    }

    /// The repository's root, for its scripts and the virtualenv of the Python peers.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
}
