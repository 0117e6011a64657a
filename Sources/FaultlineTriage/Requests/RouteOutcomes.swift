import FaultlineLogReading
import FaultlineRecords
import Foundation

/// The request outcomes of a log directory (its `requests/` log), read once and added up by route and release: what
/// `faultline routes` reports. Counts are exact sums of what the reporters counted; percentiles come from the merged
/// histograms (``LatencyHistogram``), within 1/32 of the durations they stand for.
///
/// Requests that only other SDKs' spans tell of (transactions a `faultline serve` stored, from apps that send no
/// request outcomes) are estimated apart (``SpanEstimate``): a release and environment with request outcomes is
/// counted from them alone, so that a Faultline reporter's sampled requests are not counted twice.
package struct RouteOutcomes: Sendable {
    /// Which lines of request outcomes count.
    package struct Filter: Hashable, Sendable {
        /// The window, seconds since 1970: a line counts when its interval ends in it.
        package var since: Double?
        package var until: Double?
        /// Only these route templates, releases and environments, when not empty.
        package var routes: Set<String> = []
        package var releases: Set<String> = []
        package var environments: Set<String> = []

        package init() {}

        func accepts(end: Double, release: String?, environment: String?) -> Bool {
            accepts(end: end) && accepts(release: release) && accepts(environment: environment)
        }

        func accepts(end: Double) -> Bool {
            if let since, end < since { return false }
            if let until, end >= until { return false }
            return true
        }

        func accepts(release: String?) -> Bool { releases.isEmpty || releases.contains(release ?? "") }

        func accepts(environment: String?) -> Bool {
            environments.isEmpty || environments.contains(environment ?? "")
        }
    }

    /// What reading the request logs found: files and bytes, lines of request outcomes and transactions, and lines
    /// that were not (the event logs' counterpart is ``ReadCounts``).
    package struct RequestLogCounts: Hashable, Sendable, Encodable {
        package var files = 0
        package var bytes = 0
        /// Lines of request outcomes read, each an interval of one reporter.
        package var intervals = 0
        /// Lines of the transactions' logs read, each a transaction, and the requests they timed (`http.client` spans).
        package var transactions = 0
        package var spans = 0
        /// Lines that are not request outcomes or transactions (not JSON, or not of their shape), skipped.
        package var unreadableLines = 0
        /// Rotated files that end inside a gzip member or are not gzip, and files that could not be opened or read.
        package var truncatedGzip = 0
        package var corruptGzip = 0
        package var unreadableFiles = 0

        /// Adds the counts of `other`.
        mutating func add(_ other: RequestLogCounts) {
            files += other.files
            bytes += other.bytes
            intervals += other.intervals
            transactions += other.transactions
            spans += other.spans
            unreadableLines += other.unreadableLines
            truncatedGzip += other.truncatedGzip
            corruptGzip += other.corruptGzip
            unreadableFiles += other.unreadableFiles
        }

        enum CodingKeys: String, CodingKey {
            case files, bytes, intervals, transactions, spans
            case unreadableLines = "unreadable_lines"
            case truncatedGzip = "truncated_gzip"
            case corruptGzip = "corrupt_gzip"
            case unreadableFiles = "unreadable_files"
        }
    }

    /// The requests of each route, by release (`nil` for none).
    package private(set) var routes: [RequestOutcomes.Route: [String?: RequestOutcomes.Tally]] = [:]
    /// The requests the reporters counted together past their route limit.
    package private(set) var overflow = RequestOutcomes.Tally()
    /// The requests of each route estimated from spans, by release, of the releases and environments without
    /// request outcomes.
    package private(set) var estimates: [RequestOutcomes.Route: [String?: SpanEstimate]] = [:]
    /// When each release's first interval counted started, seconds since 1970: the order releases came in.
    package private(set) var releaseStarts: [String: Double] = [:]
    /// When the first interval counted started and the last one ended, seconds since 1970.
    package private(set) var firstStart: Double?
    package private(set) var lastEnd: Double?
    package private(set) var read = RequestLogCounts()
    /// The files that could not be opened or read, and why.
    package private(set) var unreadableFiles: [UnreadableFile] = []

    /// The spans read, by release and environment and route, until they are made into ``estimates``.
    private var spans: [ReleaseEnvironment: [RequestOutcomes.Route: SpanEstimate]] = [:]
    /// The releases and environments that request outcomes counted, whose spans are not estimated.
    private var counted: Set<ReleaseEnvironment> = []

    /// No requests: what a log directory without request outcomes or transactions holds.
    package init() {}

    /// Reads `files`, logs of request outcomes, and adds up the intervals `filter` accepts; then `transactionFiles`,
    /// logs of transactions, and estimates the requests of their spans that `filter` accepts, of the releases and
    /// environments no interval counted. Large logs are read on every core, in pieces (as ``LogScan`` reads them).
    package init(files: [LogFile], transactionFiles: [LogFile] = [], filter: Filter) async {
        await self.init(files: files, transactionFiles: transactionFiles, filter: filter, pieceSize: LogScan.pieceSize)
    }

    /// Reads the logs in pieces of about `pieceSize` bytes.
    init(files: [LogFile], transactionFiles: [LogFile], filter: Filter, pieceSize: Int) async {
        let outcomePieces = LogPiece.plan(files, size: pieceSize)
        await LogPiece.read(outcomePieces + LogPiece.plan(transactionFiles, size: pieceSize)) { index, piece in
            RouteOutcomes(piece: piece, holdsTransactions: index >= outcomePieces.count, filter: filter)
        } merge: { _, part in
            merge(part)
        }
        for (key, routes) in spans where !counted.contains(key) {
            for (route, estimate) in routes {
                estimates[route, default: [:]][key.release, default: SpanEstimate()].merge(estimate)
            }
        }
        spans = [:]
        counted = []
    }

    /// What one piece holds: request outcomes, or transactions whose spans are kept in ``spans``.
    private init(piece: LogPiece, holdsTransactions: Bool, filter: Filter) {
        var reader = LogReader()
        var outcomes = OutcomeTallies(filter: filter)
        reader.readLines(of: piece) { line in
            guard !Self.isBlank(line) else { return }
            if holdsTransactions { readTransaction(line, filter: filter) } else { outcomes.read(line) }
        }
        (routes, overflow, counted, releaseStarts) = outcomes.counts()
        (firstStart, lastEnd) = (outcomes.firstStart, outcomes.lastEnd)
        read.intervals += outcomes.intervals
        read.unreadableLines += outcomes.unreadableLines
        read.files = reader.counts.files
        read.bytes = reader.counts.bytes
        read.unreadableLines += reader.counts.tooLong
        read.truncatedGzip = reader.counts.truncatedGzip
        read.corruptGzip = reader.counts.corruptGzip
        read.unreadableFiles = reader.counts.unreadableFiles
        unreadableFiles = reader.unreadableFiles
    }

    private mutating func readTransaction(_ line: UnsafeBufferPointer<UInt8>, filter: Filter) {
        guard let transaction = TransactionRecord(line: line) else {
            read.unreadableLines += 1
            return
        }
        read.transactions += 1
        read.spans += transaction.requests.count
        guard filter.accepts(end: transaction.end, release: transaction.release, environment: transaction.environment)
        else { return }
        let key = ReleaseEnvironment(release: transaction.release, environment: transaction.environment)
        Self.add(transaction, to: &spans[key, default: [:]], routes: filter.routes)
    }

    /// Adds the requests of `transaction` to the spans of its release and environment, by route.
    private static func add(
        _ transaction: TransactionRecord, to spans: inout [RequestOutcomes.Route: SpanEstimate], routes: Set<String>
    ) {
        for request in transaction.requests where routes.isEmpty || routes.contains(request.route) {
            spans[RequestOutcomes.Route(method: request.method, route: request.route), default: SpanEstimate()]
                .add(request, sampleRate: transaction.sampleRate)
        }
    }

    /// Adds what a later piece read.
    private mutating func merge(_ later: RouteOutcomes) {
        for (route, releases) in later.routes {
            for (release, tally) in releases {
                routes[route, default: [:]][release, default: RequestOutcomes.Tally()].merge(tally)
            }
        }
        overflow.merge(later.overflow)
        for (key, routes) in later.spans {
            for (route, estimate) in routes { spans[key, default: [:]][route, default: SpanEstimate()].merge(estimate) }
        }
        counted.formUnion(later.counted)
        releaseStarts.merge(later.releaseStarts) { min($0, $1) }
        firstStart = [firstStart, later.firstStart].compactMap { $0 }.min()
        lastEnd = [lastEnd, later.lastEnd].compactMap { $0 }.max()
        read.add(later.read)
        unreadableFiles += later.unreadableFiles
    }

    /// A number of requests, and whether part of it is estimated from spans.
    package struct Count: Hashable, Sendable {
        package var requests: Int
        /// Whether some of the requests are estimated from sampled spans (``SpanEstimate``), rounded to whole requests.
        package var isEstimated: Bool
    }

    /// The requests of `route` with `method` (of every method when it is `nil`), all releases, and of them those that
    /// ended as `outcome` when it is given: exact where request outcomes counted them, estimated from spans for the
    /// releases that sent only spans; `nil` when neither has the route.
    package func requests(ofRoute route: String, method: String?, outcome: String? = nil) -> Count? {
        func isOfRoute(_ key: RequestOutcomes.Route) -> Bool {
            key.route == route && (method == nil || key.method == method)
        }
        let counted = routes.filter { isOfRoute($0.key) }.values.flatMap(\.values)
        let estimated = estimates.filter { isOfRoute($0.key) }.values.flatMap(\.values)
        guard !counted.isEmpty || !estimated.isEmpty else { return nil }
        var exact = 0
        for tally in counted { exact += outcome.map { tally.outcomes[$0] ?? 0 } ?? tally.requests }
        var estimate = 0.0
        for spans in estimated { estimate += outcome.map { spans.outcomes[$0] ?? 0 } ?? spans.requests }
        return Count(requests: exact + Int(estimate.rounded()), isEstimated: !estimated.isEmpty)
    }

    /// The files of the request outcomes' log in `directory`, oldest first (not the transactions' log beside it); none
    /// when it has none.
    package static func files(in directory: URL) -> [LogFile] {
        files(of: .outcomes, in: directory)
    }

    /// The files of the transactions' log in `directory`, oldest first; none when it has none.
    package static func transactionFiles(in directory: URL) -> [LogFile] {
        files(of: .transactions, in: directory)
    }

    private static func files(of kind: RecordKind, in directory: URL) -> [LogFile] {
        let folder = LogLayout(directory).requests
        guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
        let name = kind.fileName
        return ((try? LogFile.all(in: folder)) ?? []).filter {
            let file = $0.url.lastPathComponent
            return file == name + LogLayout.logSuffix || file.hasPrefix(name + "-")
        }
    }

    /// A release and environment, which request outcomes count exactly wherever they have any.
    package struct ReleaseEnvironment: Hashable {
        package let release: String?
        package let environment: String?
    }

    /// Whether `line` holds nothing but whitespace.
    private static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        !line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D })
    }
}
