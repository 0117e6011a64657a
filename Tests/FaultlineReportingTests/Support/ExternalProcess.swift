import Foundation

/// Runs a real program the tests check against (the `gzip` tool, the Python peers) and collects what it printed.
enum ExternalProcess {
    struct Outcome {
        let status: Int32
        let output: Data
        let errors: String
    }

    /// Runs `executable` with `arguments` and returns its exit status, standard output and standard error.
    static func run(_ executable: URL, _ arguments: [String]) throws -> Outcome {
        let process = Process()
        process.executableURL = executable
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
