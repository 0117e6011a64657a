import ArgumentParser
import FaultlineServe
import Foundation

/// `faultline serve`: a Sentry-compatible ingest on this machine, writing what it accepts to a log directory that
/// every triage command reads.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run a Sentry-compatible ingest that writes events to a local log directory.",
        discussion: """
            For development, CI and small teams on one machine. Point any Sentry SDK at the DSN it prints. When a \
            team outgrows it, the same DSN setting points the SDK at Sentry (SaaS or self-hosted) or GlitchTip.
            """)

    @Option(help: "The address to listen on; 0.0.0.0 accepts other machines.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 lets the system choose.")
    var port = 8000

    @Option(
        help: ArgumentHelp(
            "Where events are written.", discussion: "Default: $FAULTLINE_LOG_DIR, else ./faultline-logs."))
    var logDir: String?

    @Option(help: "The project id of the DSN.")
    var project = "1"

    @Option(help: "The public key clients must send; by default one made on first start and kept in the log directory.")
    var key: String?

    @Option(help: "The most events the key may send a minute; past it, requests get 429 and Retry-After.")
    var rateLimit: Int?

    @Flag(name: .shortAndLong, help: "Print no line per request (the access log on standard output).")
    var quiet = false

    @Flag(
        inversion: .prefixedNo,
        help: ArgumentHelp(
            "Replace secrets inside the events' texts with [Filtered] before storing them (on by default).",
            discussion: """
                JWTs, Bearer/Token/Basic credentials, values of key=value and "key": "value" pairs whose key looks \
                sensitive, URL passwords, PEM private keys and card numbers, in every string of an event, as \
                Sentry's Relay scrubs what SDKs send.
                """))
    var scrubValues = true

    func validate() throws {
        guard (0...65535).contains(port) else {
            throw ValidationError("--port \(port) is not a port: use 1 to 65535, or 0 to let the system choose.")
        }
        if let rateLimit, rateLimit < 1 { throw ValidationError("--rate-limit is a number of events, 1 or more.") }
    }

    func run() async throws {
        let logs = URL(
            fileURLWithPath: logDir ?? ProcessInfo.processInfo.environment["FAULTLINE_LOG_DIR"] ?? "faultline-logs")
        try WriteFailure.createLogDirectory(logs)
        var configuration = IngestConfiguration(logDirectory: logs, publicKey: try key ?? Self.storedKey(in: logs))
        configuration.host = host
        configuration.port = port
        configuration.projectID = project
        configuration.eventsPerMinute = rateLimit
        if !quiet { configuration.accessLog = { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) } }
        configuration.scrubsValues = scrubValues
        let settings = configuration
        do {
            try await Self.run(settings, logs: logs)
        } catch let error as IngestServer.ListenFailure {
            FileHandle.standardError.write(Data("faultline serve: \(error)\n".utf8))
            throw ExitCode(2)
        }
    }

    private static func run(_ settings: IngestConfiguration, logs: URL) async throws {
        try await IngestServer.run(settings, handlesSignals: true) { port in
            let started = """
                faultline serve: listening on http://\(settings.host):\(port)
                DSN: \(settings.dsn(port: port))
                Events are written to \(logs.path); read them with: faultline --log-dir \(logs.path)

                """
            FileHandle.standardOutput.write(Data(started.utf8))  // unbuffered, for whoever waits for the DSN
        }
    }

    /// The key kept in `<logs>/serve.key`, made on first use, so that the DSN stays the same across restarts. Only
    /// its owner may read it (0600), as the log it guards.
    private static func storedKey(in logs: URL) throws -> String {
        let file = logs.appendingPathComponent("serve.key")
        let ownerOnly: [FileAttributeKey: Any] = [.posixPermissions: 0o600]
        if let stored = try? String(contentsOf: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines),
            !stored.isEmpty
        {
            try? FileManager.default.setAttributes(ownerOnly, ofItemAtPath: file.path)
            return stored
        }
        let key = (0..<4).map { _ in String(format: "%08x", UInt32.random(in: 0...UInt32.max)) }.joined()
        guard FileManager.default.createFile(atPath: file.path, contents: Data(key.utf8), attributes: ownerOnly) else {
            throw WriteFailure.failure("cannot write the key file \(file.path)")
        }
        return key
    }
}
