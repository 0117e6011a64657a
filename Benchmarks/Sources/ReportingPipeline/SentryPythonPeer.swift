import FaultlineTestServer
import Foundation

/// The official Sentry Python SDK, driven by `Benchmarks/peers/sentry_python_peer.py` in `.venv`: the baseline the
/// reporting benchmarks measure Faultline against, sending the same event to the same endpoint.
final class SentryPythonPeer {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let process = Process()
    private let input = Pipe()
    private var lines: AsyncStream<String>.Iterator

    /// Starts the SDK for `dsn` with a transport queue of `queueSize`, sending `event` (a JSON object), and waits
    /// until it is initialised.
    init(dsn: String, event: Data, queueSize: Int) async throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let python = repository.appendingPathComponent(".venv/bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw Failure(description: "\(python.path) is missing: run scripts/setup to install sentry-sdk")
        }
        let eventFile = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-bench-\(UUID()).json")
        try event.write(to: eventFile)
        process.executableURL = python
        process.arguments = [
            repository.appendingPathComponent("Benchmarks/peers/sentry_python_peer.py").path, dsn, eventFile.path,
            String(queueSize),
        ]
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        lines = ProcessLines.of(output.fileHandleForReading).makeAsyncIterator()
        try process.run()
        let ready = try await nextLine()
        try? FileManager.default.removeItem(at: eventFile)
        guard ready == "ready" else { throw Failure(description: "sentry_python_peer.py said \(ready)") }
    }

    /// The peer's process identifier.
    var processIdentifier: Int32 { process.processIdentifier }

    /// Sends a command, such as `burst 200` or `deliver 5000`, and returns the JSON object it answers with.
    func run(_ command: String) async throws -> [String: Any] {
        send(command)
        return try await answer()
    }

    /// Sends a command without waiting for its answer.
    func send(_ command: String) {
        input.fileHandleForWriting.write(Data("\(command)\n".utf8))
    }

    /// The JSON object the peer answers its oldest unanswered command with.
    func answer() async throws -> [String: Any] {
        let answer = try await nextLine()
        guard let object = try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any] else {
            throw Failure(description: "sentry_python_peer.py answered \(answer)")
        }
        return object
    }

    /// Closes the SDK (it sends what it still holds) and waits for the process to end.
    func stop() async {
        try? input.fileHandleForWriting.close()
        while process.isRunning { try? await Task.sleep(for: .milliseconds(20)) }
    }

    private func nextLine() async throws -> String {
        guard let line = await lines.next() else {
            throw Failure(description: "sentry_python_peer.py ended; see its output above")
        }
        return line
    }
}
