import Foundation

/// A real Bugsink from PyPI on 127.0.0.1, started by `Tests/peers/bugsink_peer.py` with the virtualenv
/// `scripts/setup` makes, in a fresh data folder: the Sentry-compatible server the end-to-end tests deliver to.
public enum Bugsink {
    /// Why Bugsink could not be started or read.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts Bugsink, runs `body` with its DSN, stops it, and returns what it stored, as `bugsink_peer.py events`
    /// prints it (`[{"issue": id, "event": {...}}, ...]`, in the order it digested them), with what `body` returned.
    public static func run<T: Sendable>(
        repository: URL, _ body: (String) async throws -> T
    ) async throws -> (stored: Data, result: T) {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-bugsink-\(UUID())")
        defer { try? FileManager.default.removeItem(at: data) }
        let port = try LoopbackPort.unused()
        let python = repository.appendingPathComponent(".venv/bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw Failure(description: "\(python.path) is missing: run scripts/setup to install Bugsink")
        }
        let script = repository.appendingPathComponent("Tests/peers/bugsink_peer.py").path
        let process = Process()
        process.executableURL = python
        process.arguments = [script, "serve", data.path, String(port)]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        let dsn = try await firstLine(startingWith: "DSN ", of: output.fileHandleForReading)
        guard await HTTPReadiness.wait(for: URL(string: "http://127.0.0.1:\(port)/")!, timeout: .seconds(30)) else {
            throw Failure(description: "Bugsink did not answer on 127.0.0.1:\(port) within 30 s")
        }
        let result = try await body(dsn)
        process.terminate()
        process.waitUntilExit()
        return (try storedEvents(python: python, script: script, data: data), result)
    }

    /// What `bugsink_peer.py events` prints for the data folder `data`.
    private static func storedEvents(python: URL, script: String, data: URL) throws -> Data {
        let process = Process()
        process.executableURL = python
        process.arguments = [script, "events", data.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "bugsink_peer.py events exited with \(process.terminationStatus)")
        }
        return printed
    }

    /// The rest of the first line `handle` prints that starts with `prefix`; migrations take up to a minute.
    private static func firstLine(startingWith prefix: String, of handle: FileHandle) async throws -> String {
        let lines = ProcessLines.of(handle)
        let found = try await withThrowingTaskGroup(of: String?.self) { group in
            group.addTask {
                for await line in lines where line.hasPrefix(prefix) { return String(line.dropFirst(prefix.count)) }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: .seconds(120))
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
        handle.readabilityHandler = nil
        guard let found else { throw Failure(description: "bugsink_peer.py printed no DSN within 120 s") }
        return found
    }
}
