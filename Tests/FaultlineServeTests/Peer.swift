import Foundation
import Testing

/// A program the tests run as a client of `faultline serve`: the official Python SDK or sentry-cli, from the .venv
/// that scripts/setup makes.
enum Peer {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Runs `executable` (a path in the repository) with `arguments` and `environment`, until it exits with 0.
    static func run(_ executable: String, _ arguments: String..., environment: [String: String] = [:]) async throws {
        let process = Process()
        process.executableURL = repository.appendingPathComponent(executable)
        process.arguments = arguments.map { $0.hasPrefix("Tests/") ? repository.appendingPathComponent($0).path : $0 }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Waited for without blocking a thread: serve answers the peer from this process.
        while process.isRunning { try await Task.sleep(for: .milliseconds(50)) }
        try #require(
            process.terminationStatus == 0, "\(executable) \(arguments) exited with \(process.terminationStatus)")
    }
}
