import Foundation

/// The repository's Python peer scripts (`Tests/peers/`) and tools (sentry-cli), run with the virtualenv
/// `scripts/setup` makes (`.venv`), which has the official Sentry SDK, Bugsink and sentry-cli.
package enum PythonPeer {
    /// Runs `script` with `arguments` to its end, with `environment` added to the test's own, without holding a thread
    /// of the concurrency pool; returns its standard output.
    ///
    /// - Throws: ``ExternalProcess/Failure`` when the virtualenv is missing or the script exits with a status other
    ///   than 0.
    package static func run(_ script: String, _ arguments: [String], environment: [String: String] = [:])
        async throws -> Data
    {
        try await ExternalProcess.run(
            Repository.python, [Repository.file("Tests/peers/\(script)").path] + arguments,
            environment: Self.environment(environment)
        ).succeeded(script).output
    }

    /// Starts `script` with `arguments`, and `environment` added to the test's own, for a script that talks to a
    /// server in this process: wait for it with ``ExternalProcess/exit(stall:)``. With
    /// `output` ``ExternalProcess/Output/lines``, read what it prints as it runs (a server's port).
    package static func start(
        _ script: String, _ arguments: [String], environment: [String: String] = [:],
        output: ExternalProcess.Output = .collected
    ) async throws -> ExternalProcess {
        try await ExternalProcess.start(
            Repository.python, [Repository.file("Tests/peers/\(script)").path] + arguments,
            environment: Self.environment(environment), output: output)
    }

    /// Starts the virtualenv's `tool` (`sentry-cli`) with `arguments`, and `environment` added to the test's own.
    package static func start(tool: String, _ arguments: [String], environment: [String: String] = [:])
        async throws -> ExternalProcess
    {
        try await ExternalProcess.start(
            Repository.file(".venv/bin/\(tool)"), arguments, environment: Self.environment(environment))
    }

    /// The test's environment with `added`, and `FAULTLINE_TEST_PATIENCE`: the suite's ``patience`` in seconds, the
    /// bound of a peer's waits (an SDK's flush), which end as soon as what they wait for is done.
    private static func environment(_ added: [String: String]) -> [String: String] {
        ProcessInfo.processInfo.environment
            .merging(["FAULTLINE_TEST_PATIENCE": "\(patience.components.seconds)"]) { $1 }
            .merging(added) { $1 }
    }
}
