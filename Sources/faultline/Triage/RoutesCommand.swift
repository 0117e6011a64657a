import ArgumentParser
import FaultlineLogReading
import FaultlineRecords
import FaultlineTriage
import Foundation

/// `faultline routes`: each route's requests, failures, failure rate and durations, from the request outcomes the
/// reporters counted, and estimated from the spans of other SDKs' transactions.
struct RoutesCommand: AsyncParsableCommand, CommandWithExamples {
    static let configuration = CommandConfiguration(
        commandName: "routes",
        abstract: "How bad it is: each route's requests, failures by outcome, failure rate and p50/p95/p99 durations.",
        discussion: """
            Reads the request outcomes the reporters counted (requests/ in the log directory): every request a \
            CaptureMiddleware saw, counted by route and outcome, one line per interval. Counts and rates are exact; \
            percentiles are within 3.2 % of the durations they stand for.

            Releases that sent no request outcomes (another SDK's app, sending transactions to faultline serve) \
            are estimated from the http.client spans of their transactions, shown apart and marked ~: each span \
            counts for 1 / its trace's sample rate requests, and a route is its URL's path with identifiers as *.
            """)

    static let examples: [(commandLine: String, purpose: String)] = [
        ("faultline routes --since 1h", "The last hour's failure rate and latency of every route."),
        ("faultline routes --route /users/{id} --json", "One route's requests, per release, as JSON."),
    ]

    @OptionGroup var directory: LogDirectoryOption

    @Option(
        name: .customLong("file"),
        help: ArgumentHelp(
            "Read this log instead of a directory's (.jsonl, .jsonl.gz); repeatable.",
            discussion: "A file whose name starts with 'transactions' is read as transactions, any other as outcomes."))
    var files: [String] = []

    @OptionGroup var times: WindowOptions

    @Option(help: "Only this route template, such as /users/{id}; repeatable.")
    var route: [String] = []

    @Option(help: "Only this release; repeatable.")
    var release: [String] = []

    @Option(help: "Only this environment; repeatable.")
    var environment: [String] = []

    @Flag(help: "Print JSON with a stable schema.")
    var json = false

    func validate() throws {
        _ = try times.window()
    }

    func run() async throws {
        var filter = RouteOutcomes.Filter()
        (filter.since, filter.until) = try times.window()
        filter.routes = Set(route)
        filter.releases = Set(release)
        filter.environments = Set(environment)
        let (outcomeFiles, transactionFiles) = try logFiles()
        let outcomes = await RouteOutcomes(files: outcomeFiles, transactionFiles: transactionFiles, filter: filter)
        TriageOptions.name(outcomes.unreadableFiles)
        let report = RoutesReport(outcomes)
        if json {
            try StandardOutput.write(try JSONOutput.encode(report))
        } else {
            try StandardOutput.write(Data(report.text(style: .standardOutput).utf8))
        }
    }

    /// The files named, else those of the log directory's request outcomes and transactions, each kind apart; fails
    /// with status 2 when a named file or the directory is missing.
    private func logFiles() throws -> (outcomes: [LogFile], transactions: [LogFile]) {
        do {
            guard files.isEmpty else {
                let named = try files.map { try LogFile.named($0) }
                let transactionsName = RecordKind.transactions.fileName
                let isTransactions = { (file: LogFile) in file.url.lastPathComponent.hasPrefix(transactionsName) }
                return (named.filter { !isTransactions($0) }, named.filter(isTransactions))
            }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory.url.path, isDirectory: &isDirectory) else {
                throw TriageError.missingDirectory(directory.url.path)
            }
            guard isDirectory.boolValue else { throw TriageError.notADirectory(directory.url.path) }
            return (RouteOutcomes.files(in: directory.url), RouteOutcomes.transactionFiles(in: directory.url))
        } catch let error as TriageError {
            throw CommandFailure(message: "\(error)", status: .unavailable)
        }
    }
}
