import BenchmarkSupport
import FaultlineReporting
import FaultlineTestServer
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An ingest under load, in its own process: `faultline serve` as a user runs it, or a real Bugsink from PyPI
/// (`Tests/peers/bugsink_peer.py`, gunicorn with one worker, events digested inside the request).
final class IngestPeer {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Which ingest it is, and so where its stored events are read.
    enum Kind {
        case faultline, bugsink
    }

    let name: String
    let kind: Kind
    let dsn: DSN
    private var process: Process
    private let data: URL

    private init(name: String, kind: Kind, dsn: DSN, process: Process, data: URL) {
        self.name = name
        self.kind = kind
        self.dsn = dsn
        self.process = process
        self.data = data
    }

    /// The port it listens on, on 127.0.0.1.
    var port: Int { dsn.port ?? 80 }

    /// The `X-Sentry-Auth` header an SDK sends it.
    var auth: String { dsn.authHeader(client: "faultline-bench/1.0") }

    /// The path of its envelope endpoint, `/api/<project>/envelope/`.
    var envelopePath: String { "\(dsn.pathPrefix)/api/\(dsn.projectID)/envelope/" }

    /// The seconds of CPU its process and workers have used so far.
    var cpuSeconds: Double? { ProcessCPU.seconds(ofTree: process.processIdentifier) }

    /// The event id of every event it has stored, one per event, read back from its log or database.
    func storedEventIDs() throws -> [String] {
        switch kind {
        case .faultline: try StoredEvents.ids(inLog: data)
        case .bugsink: try StoredEvents.ids(inBugsink: data)
        }
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Starts `faultline serve` (the executable at `faultline`, with `arguments` added) on a port the system chooses.
    static func faultline(_ faultline: String, arguments: [String] = []) async throws -> IngestPeer {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-ingest-bench-\(UUID())")
        return try await start(
            name: "faultline serve", kind: .faultline, executable: URL(fileURLWithPath: faultline),
            arguments: ["serve", "--port", "0", "--log-dir", data.path, "--quiet"] + arguments, dsnPrefix: "DSN: ",
            data: data)
    }

    /// Starts Bugsink in a fresh data folder on a free port; migrations take up to a minute.
    static func bugsink() async throws -> IngestPeer {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-bugsink-bench-\(UUID())")
        let python = repository.appendingPathComponent(".venv/bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw Failure(description: "\(python.path) is missing: run scripts/setup to install Bugsink")
        }
        let script = repository.appendingPathComponent("Tests/peers/bugsink_peer.py").path
        let peer = try await start(
            name: "Bugsink 2.6.1", kind: .bugsink, executable: python,
            arguments: [script, "serve", data.path, String(try LoopbackPort.unused())], dsnPrefix: "DSN ", data: data)
        do {
            try await peer.waitUntilListening()
        } catch {
            peer.stop()
            throw error
        }
        return peer
    }

    /// Stops the process and removes its data.
    func stop() {
        halt()
        try? FileManager.default.removeItem(at: data)
    }

    /// Stops the process and keeps its data, for ``restart()``: an outage.
    func halt() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// Starts the process again, as it was started, on its data: `faultline serve` started with a `--port` of its
    /// own comes back on the same port, with the same key.
    func restart() async throws {
        guard !process.isRunning, let executable = process.executableURL else { return }
        let dsnPrefix = kind == .bugsink ? "DSN " : "DSN: "
        process = try await Self.start(
            name: name, kind: kind, executable: executable, arguments: process.arguments ?? [], dsnPrefix: dsnPrefix,
            data: data
        ).process
    }

    private static func start(
        name: String, kind: Kind, executable: URL, arguments: [String], dsnPrefix: String, data: URL
    ) async throws -> IngestPeer {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        for await line in ProcessLines.of(output.fileHandleForReading) where line.hasPrefix(dsnPrefix) {
            return IngestPeer(
                name: name, kind: kind, dsn: try DSN(String(line.dropFirst(dsnPrefix.count))), process: process,
                data: data)
        }
        throw Failure(description: "\(name) ended before printing its DSN")
    }

    /// Waits until the server answers HTTP: gunicorn starts after the DSN is printed.
    private func waitUntilListening() async throws {
        let root = URL(string: "http://\(dsn.host):\(dsn.port ?? 80)/")!
        guard await HTTPReadiness.wait(for: root, timeout: .seconds(120)) else {
            throw Failure(description: "\(name) did not answer on \(root) within two minutes")
        }
    }
}
