import Foundation
import TestSupport

/// Runs the system's `gzip`, the reference our gzip data is checked against.
enum GzipTool {
    /// Runs `gzip` with `arguments` and returns its exit status, standard output and standard error.
    static func run(_ arguments: [String]) async throws -> ExternalProcess.Outcome {
        try await ExternalProcess.run(URL(fileURLWithPath: "/usr/bin/gzip"), arguments)
    }
}
