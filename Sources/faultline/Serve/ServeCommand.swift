import ArgumentParser
import FaultlineRecords
import FaultlineReporting
import FaultlineServe
import FaultlineTriage
import Foundation

/// `faultline serve`: a Sentry-compatible ingest on this machine, writing what it accepts to a log directory that
/// every triage command reads.
struct ServeCommand: AsyncParsableCommand, CommandWithExamples {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run a Sentry-compatible ingest that writes events to a local log directory.",
        discussion: """
            For development, CI and small teams on one machine. Point any Sentry SDK at the DSN it prints. When a \
            team outgrows it, run it next to the apps with --forward: it keeps every envelope on this machine for \
            local triage and as a durable buffer, and forwards it to Sentry (SaaS or self-hosted), GlitchTip or \
            Bugsink, through outages and rate limits.
            """)

    static let examples: [(commandLine: String, purpose: String)] = [
        ("faultline serve", "An ingest on 127.0.0.1:8000 that writes to ./faultline-logs; it prints the DSN to use."),
        (
            "faultline serve --port 9000 --rate-limit 600 --max-age 30d",
            "Another port, at most 600 events a minute, each kept 30 days at most."
        ),
        (
            "faultline serve --forward https://KEY@o1.ingest.sentry.io/42",
            "Keep every event here and forward it to Sentry."
        ),
    ]

    @Option(help: "The address to listen on; 0.0.0.0 accepts other machines.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 lets the system choose.")
    var port = 8000

    @Option(
        help: "Where events are written; by default $\(LogLayout.environmentVariable), else ./\(LogLayout.defaultPath)."
    )
    var logDir: String?

    @Option(help: "The project id of the DSN.")
    var project = "1"

    @Option(help: "The public key clients must send; by default one made on first start and kept in the log directory.")
    var key: String?

    @Option(help: "The most events the key may send a minute; past it, requests get 429 and Retry-After.")
    var rateLimit: Int?

    @Option(help: "Seconds a connection may send nothing, between requests or within one, before it is closed (60).")
    var idleTimeout: Int?

    @Flag(name: .shortAndLong, help: "Print no line per request (the access log on standard output).")
    var quiet = false

    @Flag(
        inversion: .prefixedNo,
        help: ArgumentHelp(
            "Replace secrets in the events with [Filtered] before storing or forwarding them (on by default).",
            discussion: """
                At least as Sentry's Relay scrubs what SDKs send: the values of passwords, secrets, tokens and keys \
                named anywhere in an event (extra, contexts, request data and headers, cookies, frame variables), \
                and in every text JWTs, Bearer/Token/Basic credentials, key=value pairs, URL passwords, PEM private \
                keys, card numbers, IBANs, US social security numbers, users' home paths, and emails in messages.
                """))
    var scrubValues = true

    @Option(
        help: ArgumentHelp(
            "A field name whose values are always filtered, besides the defaults (Sentry's sensitiveFields).",
            discussion: """
                Repeat it or separate names with commas. A member, pair, header, cookie or query item whose name \
                holds it, compared case-insensitively, is filtered, as Sentry's "Additional Sensitive Fields".
                """, valueName: "names"))
    var sensitiveFields: [String] = []

    @Option(
        help: ArgumentHelp(
            "A field name that is never scrubbed (Sentry's excludeFields, its \"Safe Fields\").",
            discussion: "Repeat it or separate names with commas; compared case-insensitively with the whole name.",
            valueName: "names"))
    var excludeFields: [String] = []

    @Flag(
        help: ArgumentHelp(
            "Remove IP addresses: user.ip_address, sdk.client_ip, REMOTE_ADDR, and any in a text (Sentry's "
                + "scrubIpAddresses; off by default)."))
    var scrubIpAddresses = false

    @Flag(
        inversion: .prefixedNo,
        help: ArgumentHelp(
            "Use Sentry's default scrubbers (Sentry's scrubDefaults; on by default).",
            discussion: """
                Without them only --sensitive-fields and --scrub-ip-addresses scrub: no default names, headers, \
                cookies or patterns.
                """))
    var scrubDefaults = true

    @Option(
        name: .customLong("pii-config"),
        help: ArgumentHelp(
            "A Relay PII config (a Sentry project's advanced data scrubbing rules, JSON) applied to every event.",
            discussion: """
                Selectors, rules (pattern, redact_pair, @ip, @email:mask, @anything:remove, ...) and redactions \
                (remove, replace, mask, hash) as Relay reads them, applied before serve's own scrubbing. The file is \
                checked at start: a selector, pattern or rule id that is wrong stops serve with the reason.
                """),
        completion: .file(extensions: ["json"]))
    var piiConfig: String?

    @Option(help: "The most bytes the local log's files take; past it the oldest rotated files are deleted (64 MiB).")
    var maxLogBytes: Int?

    @Option(
        help: ArgumentHelp(
            "How long the local log and the forward queues keep what they hold: 30d, 12h (no limit by default).",
            discussion: """
                Files past the age are removed whole, checked every minute; the log's files rotate within a 24th of \
                it. Envelopes a forward queue drops by age are reported upstream as cache_overflow. 'faultline \
                stats' counts the files removed by age apart from those the size caps delete.
                """, valueName: "age"))
    var maxAge: String?

    @Option(
        help: ArgumentHelp(
            "Forward every accepted envelope to this upstream DSN (Sentry, GlitchTip, Bugsink).",
            discussion: """
                Envelopes are forwarded as received, events, attachments, sessions and client reports alike, with \
                the upstream's key; a 200 means the envelope is on this machine's disk. Each upstream has a durable \
                queue in <log dir>/forward/, with retries, backoff, rate limits and client reports.
                """, valueName: "dsn"))
    var forward: String?

    @Option(
        help: ArgumentHelp(
            "A JSON file of routes: accepted projects and keys, each with its upstream DSN.",
            discussion: #"""
                {"routes": [{"project": "1", "key": "<key clients send>", "upstream": "https://<key>@sentry.example.com/42"}]}. \#
                Each route's project and key are accepted besides --project and --key.
                """#, valueName: "file"))
    var forwardConfig: String?

    @Flag(help: "With --forward or --forward-config: keep no local log, only the forward queues.")
    var forwardOnly = false

    @Flag(
        help: """
            With --forward: forward what waits in the queues of earlier upstreams (another host, port or project) to \
            this one when serve starts.
            """)
    var drainStrandedQueues = false

    @Option(help: "The most envelopes one upstream's forward queue holds; past it the oldest are dropped (200000).")
    var forwardQueueMaxEnvelopes: Int?

    @Option(help: "The most bytes one upstream's forward queue holds; past it the oldest are dropped (1 GiB).")
    var forwardQueueMaxBytes: Int?

    func validate() throws {
        guard !project.isEmpty, project.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw ValidationError(
                "--project '\(project)' is not a project id: Sentry's SDKs read a DSN's project as a number, such as 1 "
                    + "or 42.")
        }
        if let key,
            key.isEmpty || key.contains(where: { !$0.isASCII || !($0.isLetter || $0.isNumber || "-_.~".contains($0)) })
        {
            throw ValidationError(
                "--key '\(key)' cannot be a DSN's key: use letters, digits, '-', '_', '.' and '~' (Sentry's keys are "
                    + "32 hexadecimal digits).")
        }
        guard (0...65535).contains(port) else {
            throw ValidationError("--port \(port) is not a port: use 1 to 65535, or 0 to let the system choose.")
        }
        if let rateLimit, rateLimit < 1 { throw ValidationError("--rate-limit is a number of events, 1 or more.") }
        if forward != nil, forwardConfig != nil {
            throw ValidationError("--forward and --forward-config both name upstreams: use one.")
        }
        let forwarding = forward != nil || forwardConfig != nil
        if !forwarding,
            forwardOnly || drainStrandedQueues || forwardQueueMaxEnvelopes != nil || forwardQueueMaxBytes != nil
        {
            throw ValidationError(
                "--forward-only, --drain-stranded-queues and the --forward-queue options need an upstream: add "
                    + "--forward DSN or --forward-config."
            )
        }
        for (name, value) in [
            ("--max-log-bytes", maxLogBytes), ("--idle-timeout", idleTimeout),
            ("--forward-queue-max-envelopes", forwardQueueMaxEnvelopes),
            ("--forward-queue-max-bytes", forwardQueueMaxBytes),
        ] {
            if let value, value < 1 { throw ValidationError("\(name) is 1 or more.") }
        }
        if let forward {
            do { _ = try DSN(forward) } catch { throw ValidationError("--forward: \(error)") }
        }
        if let maxAge, (TimeExpression.duration(maxAge) ?? 0) <= 0 {
            throw ValidationError("--max-age '\(maxAge)' is not an age: use a number and s, m, h, d or w, such as 30d.")
        }
    }

    /// The PII config in the file at `path`.
    private static func readPIIConfig(_ path: String) throws -> PIIConfig {
        let json: Data
        do {
            json = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CommandFailure(
                message: "cannot read the PII config \(path): \(error.localizedDescription)", status: .unavailable,
                command: "faultline serve")
        }
        do {
            return try PIIConfig(json: json)
        } catch {
            throw CommandFailure(
                message: "the PII config \(path): \(error)", status: .usage, command: "faultline serve")
        }
    }

    /// The names given to an option that takes names, each given alone or separated by commas.
    private static func names(_ given: [String]) -> [String] {
        given.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            !$0.isEmpty
        }
    }

    func run() async throws {
        let logs = LogLayout(path: logDir).url
        try WriteFailure.createLogDirectory(logs)
        var configuration = IngestConfiguration(logDirectory: logs, publicKey: try key ?? Self.storedKey(in: logs))
        configuration.host = host
        configuration.port = port
        configuration.projectID = project
        configuration.eventsPerMinute = rateLimit
        if let idleTimeout { configuration.idleTimeout = .seconds(idleTimeout) }
        if !quiet { configuration.accessLog = { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) } }
        configuration.warnings = { StandardError.say($0, as: "faultline serve") }
        configuration.scrubsValues = scrubValues
        configuration.scrubRules = ScrubRules(
            sensitiveFields: Self.names(sensitiveFields), excludeFields: Self.names(excludeFields),
            scrubIpAddresses: scrubIpAddresses, scrubDefaults: scrubDefaults)
        configuration.piiConfig = try piiConfig.map(Self.readPIIConfig)
        configuration.maximumLogBytes = maxLogBytes
        configuration.maximumAge = maximumAge
        do {
            configuration.forwarding = try forwarding(project: project, key: configuration.publicKey)
        } catch let error as ForwardRoutesFile.Failure {
            throw CommandFailure(message: "\(error)", status: .usage, command: "faultline serve")
        }
        let settings = configuration
        do {
            try await Self.run(settings, logs: logs)
        } catch let error as EventLogError {
            throw CommandFailure(message: "\(error)", status: .unavailable, command: "faultline serve")
        } catch let error as IngestServer.ListenFailure {
            throw CommandFailure(message: "\(error)", status: .unavailable, command: "faultline serve")
        } catch let error as ForwardRoutesConflict {
            throw CommandFailure(message: "\(error)", status: .usage, command: "faultline serve")
        }
    }

    /// Where accepted envelopes are forwarded: every one to `--forward`'s DSN, or along `--forward-config`'s routes;
    /// `nil` for neither.
    private func forwarding(project: String, key: String) throws -> ForwardConfiguration? {
        let routes: [ForwardRoute]
        if let forward {
            routes = [ForwardRoute(projectID: project, publicKey: key, upstream: try DSN(forward))]
        } else if let forwardConfig {
            routes = try ForwardRoutesFile.routes(at: forwardConfig)
        } else {
            return nil
        }
        var forwarding = ForwardConfiguration(routes: routes)
        forwarding.storesLocally = !forwardOnly
        forwarding.drainsStrandedQueues = drainStrandedQueues
        forwarding.checksUpstreams = true
        if let forwardQueueMaxEnvelopes { forwarding.maximumQueueCount = forwardQueueMaxEnvelopes }
        if let forwardQueueMaxBytes { forwarding.maximumQueueBytes = forwardQueueMaxBytes }
        forwarding.maximumAge = maximumAge
        return forwarding
    }

    /// `--max-age` as a duration; `nil` without it.
    private var maximumAge: Duration? {
        maxAge.flatMap(TimeExpression.duration).map { .seconds($0) }
    }

    private static func run(_ settings: IngestConfiguration, logs: URL) async throws {
        try await IngestServer.run(settings, handlesSignals: true) { port in
            let forwarded = (settings.forwarding?.routes ?? []).map {
                "Forwarding project \($0.projectID) (key \($0.publicKey.prefix(8))…) to \($0.upstream)\n"
            }
            let stored =
                settings.forwarding?.storesLocally == false
                ? "Nothing is stored locally (--forward-only); the forward queues are in \(logs.path)/forward\n"
                : "Events are written to \(logs.path); read them with: faultline --log-dir \(logs.path)\n"
            let started = """
                faultline serve: listening on http://\(settings.host):\(port)
                DSN: \(settings.dsn(port: port))
                \(forwarded.joined())\(stored)
                """
            FileHandle.standardOutput.write(Data(started.utf8))  // unbuffered, for whoever waits for the DSN
        }
    }

    /// The key kept in `<logs>/serve.key`, made on first use, so that the DSN stays the same across restarts. Only
    /// its owner may read it (0600), as the log it guards.
    private static func storedKey(in logs: URL) throws -> String {
        let file = LogLayout(logs).serveKey
        let ownerOnly: [FileAttributeKey: Any] = [.posixPermissions: 0o600]
        if let stored = try? String(contentsOf: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines),
            !stored.isEmpty
        {
            try? FileManager.default.setAttributes(ownerOnly, ofItemAtPath: file.path)
            return stored
        }
        let key = (0..<4).map { _ in String(format: "%08x", UInt32.random(in: 0...UInt32.max)) }.joined()
        guard FileManager.default.createFile(atPath: file.path, contents: Data(key.utf8), attributes: ownerOnly) else {
            throw CommandFailure(message: "cannot write the key file \(file.path)", status: .unavailable)
        }
        return key
    }
}
