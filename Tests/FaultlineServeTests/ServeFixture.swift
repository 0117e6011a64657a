import FaultlineRecords
import FaultlineReporting
import FaultlineServe
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `faultline serve` running in the test process on a port the system chooses, writing to a fresh log directory.
struct ServeFixture {
    static let publicKey = "0123456789abcdef0123456789abcdef"

    let logs: URL
    let port: Int

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }
    var dsn: String { "http://\(Self.publicKey)@127.0.0.1:\(port)/1" }

    /// Every byte of every file in `directory`, a log directory serve wrote, rotated gzip files decompressed: what a
    /// test looks for a secret in.
    static func bytes(in directory: URL) throws -> Data {
        var bytes = Data()
        for name in try FileManager.default.subpathsOfDirectory(atPath: directory.path) {
            var isDirectory: ObjCBool = false
            let url = directory.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue
            else { continue }
            var data = try Data(contentsOf: url)
            if name.hasSuffix(".gz") { data = try Gzip.decompress(data, maximumSize: 256 << 20) }
            bytes.append(data)
        }
        return bytes
    }

    /// A fresh log directory for a test to pass to ``run(logs:_:)`` and remove.
    static func logDirectory() throws -> URL {
        try TemporaryDirectory("serve").url
    }

    /// Starts the ingest writing to `logs` (with a rate limit of `eventsPerMinute`, forwarding as `forwarding` says,
    /// closing connections idle for `idleTimeout`, its warnings to `warnings`, its rate limit and statistics' writes on
    /// `clock`), runs `body` with it, and stops it, closing its log.
    static func run<T: Sendable>(
        logs: URL, eventsPerMinute: Int? = nil, forwarding: ForwardConfiguration? = nil,
        idleTimeout: Duration = .seconds(60), warnings: (@Sendable (String) -> Void)? = nil,
        clock: ElapsedClock = .continuous, _ body: @Sendable (ServeFixture) async throws -> T
    ) async throws -> T {
        var settings = IngestConfiguration(logDirectory: logs, publicKey: publicKey)
        settings.warnings = warnings
        settings.port = 0
        settings.eventsPerMinute = eventsPerMinute
        settings.clock = clock
        settings.idleTimeout = idleTimeout
        settings.forwarding = forwarding
        let ingest = try await RunningIngest(settings)
        do {
            let result = try await body(ServeFixture(logs: logs, port: ingest.port))
            try await ingest.stop()
            return result
        } catch {
            try? await ingest.stop()
            throw error
        }
    }

    /// Starts the built `faultline serve` (quiet, so that its access log cannot fill a pipe nobody reads) on a port
    /// the system chooses, writing to `logs`, with `arguments` added; returns the process and its port once it
    /// listens.
    static func launch(logs: URL, _ arguments: [String] = []) async throws -> (process: ExternalProcess, port: Int) {
        let process = try await BuiltFaultline.start(
            ["serve", "--port", "0", "--log-dir", logs.path, "--key", publicKey, "--quiet"] + arguments)
        do {
            let started = try await process.line()
            let port = try #require(started.split(separator: ":").last.flatMap { Int($0) }, "\(started)")
            return (process, port)
        } catch {
            process.kill()
            throw error
        }
    }

    /// Sends `body` to `path` with `headers`; returns the status and the `X-Sentry-Error` reason.
    func post(_ path: String, body: Data, headers: [String: String] = [:]) async throws -> (Int, String?) {
        let (status, response) = try await send(path, body: body, headers: headers)
        return (status, response.value(forHTTPHeaderField: "X-Sentry-Error"))
    }

    /// Sends `body` to `path` with `headers`; returns the status and the response.
    func send(_ path: String, body: Data, headers: [String: String] = [:]) async throws -> (Int, HTTPURLResponse) {
        let (_, response) = try await exchange(path, body: body, headers: headers)
        return (response.statusCode, response)
    }

    /// Sends `body` to `path` with `headers`; returns the response's body and the response.
    func exchange(_ path: String, body: Data, headers: [String: String] = [:]) async throws -> (Data, HTTPURLResponse) {
        var request = URLRequest(url: URL(string: baseURL.absoluteString + path)!)
        request.httpMethod = "POST"
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (answer, response) = try await URLSession.shared.data(for: request)
        return (answer, try #require(response as? HTTPURLResponse))
    }

    /// What `/metrics` says: each sample line's value by its name and labels, as the text format writes them.
    func metrics() async throws -> [String: Int] {
        let (data, _) = try await URLSession.shared.data(from: baseURL.appendingPathComponent("metrics"))
        var samples: [String: Int] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") where !line.hasPrefix("#") {
            // (a gauge's value is written as a floating-point number, `3.0`)
            guard let space = line.lastIndex(of: " "), let number = Double(line[line.index(after: space)...]),
                let value = Int(exactly: number)
            else {
                continue
            }
            samples[String(line[..<space])] = value
        }
        return samples
    }

    /// `X-Sentry-Auth` with the right key.
    static var auth: [String: String] { ["X-Sentry-Auth": "Sentry sentry_key=\(publicKey), sentry_version=7"] }
}
