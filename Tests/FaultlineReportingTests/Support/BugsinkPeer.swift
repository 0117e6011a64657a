import FaultlineReporting
import FaultlineTestServer
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real Bugsink from PyPI on 127.0.0.1, started by `Tests/peers/bugsink_peer.py` in a fresh data folder.
enum BugsinkPeer {
    /// An event as Bugsink stored it, and the issue it grouped it into.
    struct StoredEvent: Decodable {
        let issue: String
        let event: SentryEvent
    }

    /// Starts Bugsink, runs `body` with its DSN, stops it, and returns what it stored with what `body` returned.
    static func run<T: Sendable>(_ body: (DSN) async throws -> T) async throws -> (stored: [StoredEvent], result: T) {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-bugsink-\(UUID())")
        defer { try? FileManager.default.removeItem(at: data) }
        let port = try await RecordingIngest.run { $0.port }
        let python = PythonPeer.repository.appendingPathComponent(".venv/bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw PythonPeer.Failure(description: "\(python.path) is missing: run scripts/setup to install Bugsink")
        }
        let process = Process()
        process.executableURL = python
        process.arguments = [
            PythonPeer.repository.appendingPathComponent("Tests/peers/bugsink_peer.py").path, "serve", data.path,
            String(port),
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        let dsn = try DSN(try await firstLine(startingWith: "DSN ", of: output.fileHandleForReading))
        guard await HTTPReadiness.wait(for: URL(string: "http://127.0.0.1:\(port)/")!, timeout: .seconds(30)) else {
            throw PythonPeer.Failure(description: "Bugsink did not answer on 127.0.0.1:\(port) within 30 s")
        }
        let result = try await body(dsn)
        process.terminate()
        process.waitUntilExit()
        let stored = try JSONDecoder().decode(
            [StoredEvent].self, from: PythonPeer.run("bugsink_peer.py", ["events", data.path]))
        return (stored, result)
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
        guard let found else {
            throw PythonPeer.Failure(description: "bugsink_peer.py printed no DSN within 120 s")
        }
        return found
    }
}
