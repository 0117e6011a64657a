import Foundation

/// The `faultline` executable that `swift build` put beside the running test runner, run as a user runs it: no
/// terminal, `NO_COLOR`.
public enum BuiltFaultline {
    /// Why a run failed.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Its path: beside the process running now (the test runner).
    public static var url: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("faultline")
    }

    /// What `faultline arguments` prints on standard output.
    ///
    /// - Throws: ``Failure`` when it is missing or exits with a status other than 0.
    public static func run(_ arguments: [String]) throws -> Data {
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw Failure(description: "\(url.path) is missing: `swift build --build-tests` builds it with the tests")
        }
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.environment = ["NO_COLOR": "1", "PATH": "/usr/bin:/bin"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(
                description: "faultline \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
        }
        return data
    }
}
