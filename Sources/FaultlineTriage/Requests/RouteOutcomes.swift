import FaultlineLogReading
import FaultlineReporting
import Foundation

/// The request outcomes of a log directory (its `requests/` log), read once and added up by route and release: what
/// `faultline routes` reports. Counts are exact sums of what the reporters counted; percentiles come from the merged
/// histograms (``LatencyHistogram``), within 1/32 of the durations they stand for.
public struct RouteOutcomes: Sendable {
    /// Which lines of request outcomes count.
    public struct Filter: Hashable, Sendable {
        /// The window, seconds since 1970: a line counts when its interval ends in it.
        public var since: Double?
        public var until: Double?
        /// Only these route templates, releases and environments, when not empty.
        public var routes: Set<String> = []
        public var releases: Set<String> = []
        public var environments: Set<String> = []

        public init() {}

        func accepts(_ outcomes: RequestOutcomes) -> Bool {
            let end = outcomes.end.timeIntervalSince1970
            if let since, end < since { return false }
            if let until, end >= until { return false }
            if !releases.isEmpty, !releases.contains(outcomes.release ?? "") { return false }
            if !environments.isEmpty, !environments.contains(outcomes.environment ?? "") { return false }
            return true
        }
    }

    /// What was read: files and bytes, lines of request outcomes, and lines that were not.
    public struct ReadCounts: Hashable, Sendable, Encodable {
        public var files = 0
        public var bytes = 0
        /// Lines of request outcomes read, each an interval of one reporter.
        public var intervals = 0
        /// Lines that are not request outcomes (not JSON, or not of their shape), skipped.
        public var unreadableLines = 0
        /// Rotated files that end inside a gzip member or are not gzip, and files that could not be opened or read.
        public var truncatedGzip = 0
        public var corruptGzip = 0
        public var unreadableFiles = 0

        enum CodingKeys: String, CodingKey {
            case files, bytes, intervals
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
    /// When each release's first interval counted started, seconds since 1970: the order releases came in.
    package private(set) var releaseStarts: [String: Double] = [:]
    /// When the first interval counted started and the last one ended, seconds since 1970.
    public private(set) var firstStart: Double?
    public private(set) var lastEnd: Double?
    public private(set) var read = ReadCounts()
    /// The files that could not be opened or read, and why.
    public private(set) var unreadableFiles: [UnreadableFile] = []

    /// Reads `files`, logs of request outcomes, and adds up the intervals `filter` accepts.
    public init(files: [LogFile], filter: Filter) {
        var reader = LogReader()
        for file in files {
            reader.readLines(of: file) { line in
                guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return }
                guard let outcomes = try? RequestOutcomes(line: line) else {
                    read.unreadableLines += 1
                    return
                }
                read.intervals += 1
                if filter.accepts(outcomes) { add(outcomes, routes: filter.routes) }
            }
        }
        read.files = reader.counts.files
        read.bytes = reader.counts.bytes
        read.unreadableLines += reader.counts.tooLong
        read.truncatedGzip = reader.counts.truncatedGzip
        read.corruptGzip = reader.counts.corruptGzip
        read.unreadableFiles = reader.counts.unreadableFiles
        unreadableFiles = reader.unreadableFiles
    }

    /// The requests of `route` with `method` (of every method when it is `nil`), all releases, and of them those that
    /// ended as `outcome` when it is given; `nil` when no interval counted any.
    public func requests(ofRoute route: String, method: String?, outcome: String? = nil) -> Int? {
        let counted = routes.filter { $0.key.route == route && (method == nil || $0.key.method == method) }
        guard !counted.isEmpty else { return nil }
        var total = 0
        for tally in counted.values.flatMap(\.values) {
            total += outcome.map { tally.outcomes[$0] ?? 0 } ?? tally.requests
        }
        return total
    }

    /// The files of the request outcomes' log in `directory`, oldest first (not the transactions' log beside it); none
    /// when it has none.
    public static func files(in directory: URL) -> [LogFile] {
        let folder = LogLayout(directory).requests
        guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
        let name = RequestLog.Kind.outcomes.fileName
        return ((try? LogFile.all(in: folder)) ?? []).filter {
            let file = $0.url.lastPathComponent
            return file == name + LogLayout.logSuffix || file.hasPrefix(name + "-")
        }
    }

    private mutating func add(_ outcomes: RequestOutcomes, routes names: Set<String>) {
        firstStart = min(firstStart ?? .infinity, outcomes.start.timeIntervalSince1970)
        lastEnd = max(lastEnd ?? -.infinity, outcomes.end.timeIntervalSince1970)
        if let release = outcomes.release {
            releaseStarts[release] = min(releaseStarts[release] ?? .infinity, outcomes.start.timeIntervalSince1970)
        }
        for (route, tally) in outcomes.routes where names.isEmpty || names.contains(route.route) {
            routes[route, default: [:]][outcomes.release, default: RequestOutcomes.Tally()].merge(tally)
        }
        if names.isEmpty { overflow.merge(outcomes.overflow) }
    }
}
