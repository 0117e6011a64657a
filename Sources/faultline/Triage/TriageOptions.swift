import ArgumentParser
import FaultlineLogReading
import FaultlineTriage
import Foundation

/// The options every triage command takes: where the logs are, which events count, and how to print.
struct TriageOptions: ParsableArguments {
    @OptionGroup var directory: LogDirectoryOption

    @Option(
        name: .customLong("file"),
        help: "Read this file instead of a directory (.jsonl, .jsonl.gz, .envelope; - for standard input); repeatable.")
    var files: [String] = []

    @OptionGroup var times: WindowOptions

    @Option(help: "Only this kind (server, transport, decoding, session_expired, other, error, message); repeatable.")
    var kind: [String] = []

    @Option(help: "Only this route template, such as /users/{id}; repeatable.")
    var route: [String] = []

    @Option(help: "Only this HTTP status, such as 503, or class, such as 5xx; repeatable.")
    var status: [String] = []

    @Option(help: "Only this server business code; repeatable.")
    var code: [String] = []

    @Option(help: "Only this release; repeatable.")
    var release: [String] = []

    @Option(help: "Only this environment; repeatable.")
    var environment: [String] = []

    @Option(help: "Only this user, by id, email or username; repeatable.")
    var user: [String] = []

    @Option(
        name: .customLong("where"),
        help: ArgumentHelp(
            "Only events whose field has this value: a tag (device.model=iPhone*), user.email, release, "
                + "contexts.os.name, request.method…; != for the others, * for any text; repeatable, all must hold.",
            valueName: "key=value"))
    var conditions: [String] = []

    @Option(help: "Only events whose message, title or exception contains this text, in any case (not a pattern).")
    var grep: String?

    @Flag(help: "Print JSON with a stable schema.")
    var json = false

    func validate() throws {
        for kind in kind where !SummaryReport.kinds.contains(kind) {
            throw ValidationError(
                "'\(kind)' is not a kind: use \(SummaryReport.kinds.joined(separator: ", ")).")
        }
        for status in status where !EventFilter.isStatusPattern(status) {
            throw ValidationError(
                "'\(status)' is not an HTTP status: use a number such as 503, or a class such as 5xx.")
        }
        for condition in conditions {
            do {
                _ = try FieldCondition(condition)
            } catch {
                throw ValidationError(error.description)
            }
        }
        // Times are read here, so that a mistake is answered with this command's usage.
        _ = try window()
    }

    /// `--since` (`defaultSince` when it is not given) and `--until` in seconds since 1970, read relative to `now`.
    ///
    /// - Throws: A `ValidationError` (exit status 64) when a time cannot be read or the window ends before it starts.
    func window(defaultSince: String? = nil, now: Double = Date().timeIntervalSince1970) throws -> (
        since: Double?, until: Double?
    ) {
        try times.window(defaultSince: defaultSince, now: now)
    }

    /// Reads the logs once with the filters applied, with a progress line on a terminal when that takes a while;
    /// fails with status 2 when the directory is missing and 64 when a time cannot be read.
    func scan(signals: SignalOptions? = nil, defaultSince: String? = nil) async throws -> LogScan {
        let (files, filter) = (try logFiles(), try filter(defaultSince: defaultSince))
        // A window, when there is a start, for the signals: the events before it are read for the history.
        let window = signals.flatMap { signals in
            filter.since.map { since in
                var window = signals.window(from: since, to: filter.until ?? Date().timeIntervalSince1970)
                window.includesLaterEvents = filter.until == nil
                return window
            }
        }
        var progressLine = ProgressLine()
        var scan = await LogScan(files: files, filter: filter, window: window) { progressLine.show($0) }
        progressLine.erase()
        Self.name(scan.unreadableFiles)
        if let logDirectory {
            // The requests of the same window, releases and environments, for each issue's share of its route's:
            // counted by the reporters, or estimated from the spans of releases that sent only transactions.
            var requests = RouteOutcomes.Filter()
            requests.since = window?.start ?? filter.since
            requests.until = window.map { $0.includesLaterEvents ? nil : $0.end } ?? filter.until
            (requests.releases, requests.environments) = (filter.releases, filter.environments)
            let outcomes = await RouteOutcomes(
                files: RouteOutcomes.files(in: logDirectory),
                transactionFiles: RouteOutcomes.transactionFiles(in: logDirectory), filter: requests)
            scan.countRequests(outcomes)
        }
        return scan
    }

    /// The requests the reporters counted in the baseline before `window`, with the releases and environments of the
    /// filters: what a route's failure rate in the window is compared with. Empty without a log directory.
    func baselineRequests(before window: SignalWindow) async throws -> RouteOutcomes {
        let filter = try filter(defaultSince: nil)
        var requests = RouteOutcomes.Filter()
        (requests.since, requests.until) = (window.baselineStart, window.start)
        (requests.releases, requests.environments) = (filter.releases, filter.environments)
        return await RouteOutcomes(files: logDirectory.map(RouteOutcomes.files(in:)) ?? [], filter: requests)
    }

    /// Names each file that could not be read, and why, on standard error.
    static func name(_ unreadableFiles: [UnreadableFile]) {
        for file in unreadableFiles {
            StandardError.say("skipped \(TerminalText.safe(file.url.path)): \(file.reason)")
        }
    }

    /// The files to read: those named (`-` standard input), else the log directory's; fails with status 2 when a
    /// named file or the directory is missing.
    func logFiles() throws -> [LogFile] {
        do {
            guard let logDirectory else {
                return try files.map { path in path == "-" ? try StandardInput.logFile() : try LogFile.named(path) }
            }
            return try LogFile.all(in: logDirectory)
        } catch let error as TriageError {
            throw CommandFailure(message: "\(error)", status: .unavailable)
        } catch {
            throw CommandFailure(
                message: "cannot keep standard input to read it: \(error.localizedDescription)", status: .unavailable)
        }
    }

    /// The log directory read: `nil` when files were named instead.
    var logDirectory: URL? {
        guard files.isEmpty else { return nil }
        return directory.url
    }

    /// How text is laid out and decorated: for standard output's terminal, if it is one.
    var style: TextStyle { .standardOutput }

    /// Prints `report` as JSON with `--json`, else `text`.
    func print<Report: Encodable>(_ report: Report, text: (TextStyle) -> String) throws {
        if json {
            try StandardOutput.write(try JSONOutput.encode(report))
        } else {
            try StandardOutput.write(Data(text(style).utf8))
        }
    }

    /// The filters of the options, `--since` being `defaultSince` when it is not given; a time that cannot be read
    /// and a window that ends before it starts are usage errors.
    func filter(defaultSince: String? = nil) throws -> EventFilter {
        var filter = EventFilter()
        (filter.since, filter.until) = try window(defaultSince: defaultSince)
        filter.kinds = Set(kind)
        filter.routes = Set(route)
        filter.statuses = Set(status)
        filter.serverCodes = Set(code)
        filter.releases = Set(release)
        filter.environments = Set(environment)
        filter.users = Set(user)
        filter.conditions = try conditions.map { try FieldCondition($0) }
        filter.search = grep.map(TextSearch.init)
        return filter
    }
}
