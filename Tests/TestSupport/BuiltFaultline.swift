import Foundation

/// The `faultline` executable that `swift build` put beside the running test runner, run as a user runs it: no
/// terminal, `NO_COLOR`; and `faultline-demo` (``demo``) the same way.
package enum BuiltFaultline {
    /// Its path: beside the process running now (the test runner).
    package static var url: URL { executable("faultline") }

    /// The demo's executable, `faultline-demo`, for ``run(_:program:environment:)``.
    package static let demo = "faultline-demo"

    /// The executable `name` that `swift build --build-tests` put beside the test runner (`faultline`,
    /// `CaptureLoop`).
    package static func executable(_ name: String) -> URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent(name)
    }

    /// What `faultline arguments` (or another `program` built beside it, such as ``demo``) prints on standard output,
    /// with `environment` added to the default one, waited for without holding a thread of the concurrency pool.
    ///
    /// - Throws: ``ExternalProcess/Failure`` when it is missing or exits with a status other than 0.
    package static func run(
        _ arguments: [String], program: String = "faultline", environment: [String: String] = [:]
    ) async throws -> Data {
        try await outcome(of: arguments, program: program, environment: environment)
            .succeeded("\(program) \(arguments.joined(separator: " "))").output
    }

    /// How `faultline arguments` (or `program`'s) ends, whatever its status, with `input` on its standard input, and
    /// its standard output sent to `output` when it is given (``ExternalProcess/Outcome/output`` is then empty).
    package static func outcome(
        of arguments: [String], program: String = "faultline", environment: [String: String] = [:],
        input: Data? = nil, output: FileHandle? = nil
    ) async throws -> ExternalProcess.Outcome {
        try await ExternalProcess.run(
            executable(program), arguments, environment: Self.environment(environment), input: input,
            output: output.map { .handle($0) } ?? .collected)
    }

    /// Starts `faultline arguments` with its standard output read as lines (``ExternalProcess/line(where:stall:)``),
    /// for a command that runs until it is stopped (`serve`).
    package static func start(_ arguments: [String], environment: [String: String] = [:]) async throws
        -> ExternalProcess
    {
        try await ExternalProcess.start(url, arguments, environment: Self.environment(environment), output: .lines)
    }

    private static func environment(_ added: [String: String]) -> [String: String] {
        ["NO_COLOR": "1", "PATH": "/usr/bin:/bin"].merging(added) { $1 }
    }
}
