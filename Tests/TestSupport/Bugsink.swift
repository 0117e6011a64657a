import FaultlineTestServer
import Foundation

/// A real Bugsink from PyPI on 127.0.0.1, started by `Tests/peers/bugsink_peer.py` with the virtualenv
/// `scripts/setup` makes, in a fresh data folder: the Sentry-compatible server the end-to-end tests deliver to.
package enum Bugsink {
    /// Starts Bugsink, runs `body` with its DSN, stops it, and returns what it stored, as `bugsink_peer.py events`
    /// prints it (`[{"issue": id, "event": {...}}, ...]`, in the order it digested them), with what `body` returned.
    ///
    /// - Throws: ``ExternalProcess/Failure`` when the virtualenv is missing, or Bugsink stops working before it prints
    ///   its DSN (its migrations take a minute on a loaded machine), or does not answer in time.
    package static func run<T: Sendable>(_ body: (String) async throws -> T) async throws -> (stored: Data, result: T) {
        let data = try TemporaryDirectory("bugsink")
        defer { data.remove() }
        let port = try LoopbackPort.unused()
        let server = try await PythonPeer.start(
            "bugsink_peer.py", ["serve", data.path, String(port)], output: .lines)
        defer { server.terminate() }  // SIGTERM: the peer stops its gunicorn too
        let dsnPrefix = "DSN "
        let dsn = try await server.line(where: { $0.hasPrefix(dsnPrefix) })
            .dropFirst(dsnPrefix.count)
        guard await HTTPReadiness.wait(for: URL(string: "http://127.0.0.1:\(port)/")!, timeout: patience) else {
            throw ExternalProcess.Failure(description: "Bugsink did not answer on 127.0.0.1:\(port) within \(patience)")
        }
        let result = try await body(String(dsn))
        server.terminate()
        try await server.exit()
        return (try await PythonPeer.run("bugsink_peer.py", ["events", data.path]), result)
    }
}
