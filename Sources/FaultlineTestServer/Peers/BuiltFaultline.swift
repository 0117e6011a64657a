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

    /// What a run printed, and how it ended.
    public struct Outcome: Sendable {
        public let status: Int32
        public let output: Data
        public let errors: String
    }

    /// What `faultline arguments` prints on standard output, with `environment` added to the default one.
    ///
    /// - Throws: ``Failure`` when it is missing or exits with a status other than 0.
    public static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Data {
        let outcome = try outcome(of: arguments, environment: environment)
        guard outcome.status == 0 else {
            throw Failure(
                description: "faultline \(arguments.joined(separator: " ")) exited with \(outcome.status): "
                    + outcome.errors)
        }
        return outcome.output
    }

    /// How `faultline arguments` ends, whatever its status, with `input` on its standard input, and its standard
    /// output sent to `output` when it is given (``Outcome/output`` is then empty).
    public static func outcome(
        of arguments: [String], environment: [String: String] = [:], input: Data? = nil, output: FileHandle? = nil
    ) throws -> Outcome {
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw Failure(description: "\(url.path) is missing: `swift build --build-tests` builds it with the tests")
        }
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.environment = ["NO_COLOR": "1", "PATH": "/usr/bin:/bin"].merging(environment) { $1 }
        // Standard error goes to a file, so that neither pipe fills while the other is read.
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-stderr-\(UUID())")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errors) }
        let (pipe, stdin) = (Pipe(), Pipe())
        process.standardOutput = output ?? pipe
        process.standardError = try FileHandle(forWritingTo: errors)
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        try process.run()
        if let input {
            stdin.fileHandleForWriting.write(input)
            try stdin.fileHandleForWriting.close()
        }
        let data = output == nil ? pipe.fileHandleForReading.readDataToEndOfFile() : Data()
        process.waitUntilExit()
        let errorText = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        return Outcome(status: process.terminationStatus, output: data, errors: errorText)
    }
}
