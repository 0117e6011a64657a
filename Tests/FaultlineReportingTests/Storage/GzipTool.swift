import Foundation

/// Runs the system's `gzip`, the reference our gzip data is checked against.
enum GzipTool {
    struct Outcome {
        let status: Int32
        let output: Data
        let errors: String
    }

    /// Runs `gzip` with `arguments` and returns its exit status, standard output and standard error.
    static func run(_ arguments: [String]) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/gzip")
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus, output: data, errors: String(decoding: message, as: UTF8.self))
    }
}
