import ArgumentParser
import BenchmarkSupport
import Foundation

/// `faultline summary` over a large JSON Lines log, side by side in the same run with `jq` computing the same
/// per-fingerprint counts, interleaved round by round. Both read the file from the page cache (a first, untimed run
/// of each warms it). A second, smaller log shows whether memory grows with the input or only with the issues. A third
/// log of small events (about 2 KB each) shows the cost per event, which the first log's 7 KB events hide: events/s
/// stand beside MB/s. A fourth, a `requests/` log of request outcomes and other SDKs' transactions, is what
/// `faultline routes` reads, beside jq counting the same spans. A fifth, of the official Python SDK's events without a
/// fingerprint, is what grouping by stack trace costs, against the same events with one.
@main
struct TriageSummary: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "triage-summary",
        abstract: "faultline summary over a large log, beside jq computing the same per-fingerprint counts.")

    @Option(help: "Size of the generated log, in MiB.")
    var megabytes = 1024

    @Option(help: "Size of the smaller log that checks memory against input size, in MiB.")
    var smallMegabytes = 512

    @Option(help: "Size of the log of small (about 2 KB) events that shows the cost per event, in MiB; 0 skips it.")
    var smallEventsMegabytes = 1024

    @Option(
        help: "Size of the requests/ log (outcomes and transactions) that faultline routes reads, in MiB; 0 skips it.")
    var routesMegabytes = 1024

    @Option(
        help: "Size of each log of Python SDK events that faultline groups by stack trace, in MiB; 0 skips them.")
    var sdkEventsMegabytes = 512

    @Option(help: "Timed rounds per side.")
    var rounds = 3

    @Option(help: "The faultline executable; by default the one built beside this benchmark.")
    var faultline: String?

    @Option(help: "Where the generated logs go; removed afterwards unless --keep-logs.")
    var directory = FileManager.default.temporaryDirectory.path

    @Flag(help: "Keep the generated logs, to profile faultline on them.")
    var keepLogs = false

    @Option(help: "Write the results as JSON to this file.")
    var json: String?

    /// The `--where` condition the filtered side runs: a tag every event of the corpus has.
    static let tagCondition = "http.method=GET"

    /// jq's program: events counted by fingerprint, its parts joined by U+001F.
    static let jqProgram = #"reduce inputs as $e ({}; .[$e.fingerprint | join("\u001f")] += 1)"#

    func run() throws {
        let faultline =
            faultline
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("faultline").path
        let folder = URL(fileURLWithPath: directory).appendingPathComponent("faultline-triage-bench-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer {
            if keepLogs {
                FileHandle.standardError.write(Data("logs kept in \(folder.path)\n".utf8))
            } else {
                try? FileManager.default.removeItem(at: folder)
            }
        }

        let large = folder.appendingPathComponent("events.jsonl")
        let small = folder.appendingPathComponent("small.jsonl")
        let generation = ContinuousClock.now
        var corpus = LogCorpus(seed: 2026)
        let written = try corpus.write(to: large, bytes: megabytes << 20)
        var smallCorpus = LogCorpus(seed: 2026)
        _ = try smallCorpus.write(to: small, bytes: smallMegabytes << 20)
        let smallEvents = folder.appendingPathComponent("small-events.jsonl")
        var smallEventsCorpus = LogCorpus(seed: 2026, shape: .small)
        let writtenSmallEvents = try smallEventsCorpus.write(to: smallEvents, bytes: smallEventsMegabytes << 20)
        FileHandle.standardError.write(
            Data(
                "generated \(written.events) events, \(written.bytes >> 20) MiB, and \(writtenSmallEvents.events) small events, \(writtenSmallEvents.bytes >> 20) MiB, in \((ContinuousClock.now - generation).seconds.rounded()) s\n"
                    .utf8))

        let summary = [faultline, "summary", "--json", "--file", large.path]
        // The incident signals over the corpus's last day, against the day before: the same single pass, which also
        // reads every earlier event into the issues' histories.
        let incident = [
            faultline, "incident", "--json", "--file", large.path, "--since", "2026-11-22T00:00:00Z", "--until",
            "2026-11-23T00:00:00Z",
        ]
        // A --where on a tag, which the scan reads anyway: the filter's own cost.
        let filtered = summary + ["--where", Self.tagCondition]
        let jq = ["jq", "-n", "-c", Self.jqProgram, large.path]
        let agreed = try Self.countsAgree(faultline: faultline, jq: jq, log: large)
        var faultlineRuns: [ChildRun] = []
        var incidentRuns: [ChildRun] = []
        var filteredRuns: [ChildRun] = []
        var jqRuns: [ChildRun] = []
        for round in 0...rounds {
            for command in round % 2 == 0 ? [summary, incident, filtered, jq] : [jq, filtered, incident, summary] {
                let run = try ChildRun.run(command)
                guard round > 0 else { continue }  // the first round warms the page cache
                if command == summary {
                    faultlineRuns.append(run)
                } else if command == incident {
                    incidentRuns.append(run)
                } else if command == filtered {
                    filteredRuns.append(run)
                } else {
                    jqRuns.append(run)
                }
            }
        }
        let smallRun = try ChildRun.run([faultline, "summary", "--json", "--file", small.path])
        try report(
            written: written, faultline: faultlineRuns, incident: incidentRuns, filtered: filteredRuns, jq: jqRuns,
            small: smallRun, agreed: agreed)
        if smallEventsMegabytes > 0 {
            try reportPerEvent(written: writtenSmallEvents, log: smallEvents, faultline: faultline)
        }
        if routesMegabytes > 0 {
            try reportRoutes(in: folder.appendingPathComponent("routes"), faultline: faultline)
        }
        if sdkEventsMegabytes > 0 {
            try reportGrouping(in: folder, faultline: faultline)
        }
    }

    /// `faultline issues --json` over three logs of the same Python SDK events: grouped by their stack traces, which
    /// recur; grouped by stack traces that never recur (line numbers of their own, which Python's grouping does not
    /// read: the same issues, no stack trace looked up); and with a fingerprint, which is grouping's baseline.
    private func reportGrouping(in folder: URL, faultline: String) throws {
        let logs: [(name: String, corpus: SDKEventsCorpus)] = [
            ("stack traces that recur", SDKEventsCorpus(seed: 2026)),
            ("stack traces that never recur", SDKEventsCorpus(seed: 2026, distinctLineNumbers: true)),
            ("with a fingerprint", SDKEventsCorpus(seed: 2026, withFingerprint: true)),
        ]
        var written: [SDKEventsCorpus.Written] = []
        var commands: [[String]] = []
        for (index, log) in logs.enumerated() {
            let url = folder.appendingPathComponent("sdk-events-\(index).jsonl")
            var corpus = log.corpus
            written.append(try corpus.write(to: url, events: (sdkEventsMegabytes << 20) / SDKEventsCorpus.averageLine))
            commands.append([faultline, "issues", "--json", "--file", url.path])
        }
        let issues = try commands.map { try JSONDecoder().decode(IssueList.self, from: ChildRun.run($0).output).issues }
        let counts = issues.map { rows in
            Dictionary(uniqueKeysWithValues: rows.map { ($0.fingerprint.joined(separator: "\u{1F}"), $0.events) })
        }
        guard counts[0] == counts[1], zip(issues, written).allSatisfy({ $0.map(\.events).reduce(0, +) == $1.events })
        else {
            throw ChildRun.Failure(
                description: "grouping disagrees: \(counts[0]) for recurring stack traces, \(counts[1]) for the others")
        }
        var runs: [[ChildRun]] = Array(repeating: [], count: logs.count)
        for round in 0...rounds {
            for index in round % 2 == 0 ? Array(logs.indices) : logs.indices.reversed() {
                let run = try ChildRun.run(commands[index])
                if round > 0 { runs[index].append(run) }
            }
        }
        let baseline = Samples(runs[2].map(\.seconds)).median
        var table = """
            triage-summary, grouping: `faultline issues --json` over \(written[0].events) events of the official \
            Python SDK, 15 frames each, \(String(format: "%.0f", Double(written[0].bytes) / 1e6)) MB a log \
            (\(counts[0].count) issues, the same with stack traces that recur and that never do); \(rounds) \
            interleaved rounds after a warm-up
            | log | median s | events/s | frames/s | MB/s | user CPU s | peak RSS | ratio of the fingerprinted log's time |
            |---|---|---|---|---|---|---|---|

            """
        for (index, log) in logs.enumerated() {
            let seconds = Samples(runs[index].map(\.seconds)).median
            let events = Double(written[index].events)
            table += """
                | \(log.name) | \(String(format: "%.2f", seconds)) | \(String(format: "%.0f", events / seconds)) \
                | \(String(format: "%.0f", events * 15 / seconds)) \
                | \(String(format: "%.0f", Double(written[index].bytes) / 1e6 / seconds)) \
                | \(String(format: "%.2f", Samples(runs[index].map(\.userSeconds)).median)) \
                | \(ProcessMemory.mebibytes(runs[index].map(\.peakResidentBytes).max() ?? 0)) \
                | \(String(format: "%.2f", seconds / baseline)) |

                """
        }
        print(table)
    }

    /// jq's program over the transactions: their `http.client` spans, counted.
    static let jqSpansProgram = #"reduce inputs as $t (0; . + ([$t.spans[]? | select(.op == "http.client")] | length))"#

    /// `faultline routes --json` over a generated `requests/` log, beside jq counting the transactions' request spans
    /// (after checking that both count the same), interleaved after a warm-up: MB/s, transactions/s and spans/s.
    private func reportRoutes(in directory: URL, faultline: String) throws {
        var corpus = RequestsCorpus(seed: 2026)
        let requests = directory.appendingPathComponent("requests")
        let written = try corpus.write(to: requests, bytes: routesMegabytes << 20)
        let routes = [faultline, "routes", "--json", "--log-dir", directory.path]
        let jq = ["jq", "-n", Self.jqSpansProgram, requests.appendingPathComponent("transactions.jsonl").path]
        let report = try JSONDecoder().decode(RoutesRead.self, from: try ChildRun.run(routes).output)
        let jqSpans = Int(
            String(decoding: try ChildRun.run(jq).output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        )
        guard report.read.spans == written.spans, jqSpans == written.spans, report.read.intervals == written.intervals
        else {
            throw ChildRun.Failure(
                description: "counts disagree: \(written.spans) spans written, faultline read \(report.read.spans), "
                    + "jq \(jqSpans ?? -1); \(written.intervals) intervals written, faultline read \(report.read.intervals)"
            )
        }
        var faultlineRuns: [ChildRun] = []
        var jqRuns: [ChildRun] = []
        for round in 0...rounds {
            for command in round % 2 == 0 ? [routes, jq] : [jq, routes] {
                let run = try ChildRun.run(command)
                guard round > 0 else { continue }
                if command == routes { faultlineRuns.append(run) } else { jqRuns.append(run) }
            }
        }
        let megabytes = Double(written.bytes) / 1e6
        var table = """
            triage-summary, routes: `faultline routes --json` over a requests/ log of \(written.intervals) intervals of \
            request outcomes and \(written.transactions) transactions with \(written.spans) request spans, \
            \(String(format: "%.0f", megabytes)) MB (spans counted identically by both sides; jq reads the \
            transactions only, \(String(format: "%.0f", megabytes * 0.9)) MB); \(rounds) interleaved rounds after a warm-up
            | side | median s | MB/s | transactions/s | spans/s | user CPU s | peak RSS |
            |---|---|---|---|---|---|---|

            """
        for (name, runs) in [("faultline routes", faultlineRuns), ("jq 1.6, counting spans", jqRuns)] {
            let seconds = Samples(runs.map(\.seconds)).median
            let share = name == "faultline routes" ? 1 : 0.9
            table += """
                | \(name) | \(String(format: "%.2f", seconds)) | \(String(format: "%.0f", megabytes * share / seconds)) \
                | \(String(format: "%.0f", Double(written.transactions) / seconds)) \
                | \(String(format: "%.0f", Double(written.spans) / seconds)) \
                | \(String(format: "%.2f", Samples(runs.map(\.userSeconds)).median)) \
                | \(ProcessMemory.mebibytes(runs.map(\.peakResidentBytes).max() ?? 0)) |

                """
        }
        print(table)
    }

    /// What the check reads of `faultline routes --json`.
    private struct RoutesRead: Decodable {
        struct Read: Decodable {
            let intervals: Int
            let spans: Int
        }

        let read: Read
    }

    /// `faultline summary` and `faultline issues --json` over the log of small events, after a warm-up run of each:
    /// events/s beside MB/s.
    private func reportPerEvent(written: LogCorpus.Written, log: URL, faultline: String) throws {
        let commands = [
            ("faultline summary", [faultline, "summary", "--json", "--file", log.path]),
            ("faultline issues --json", [faultline, "issues", "--json", "--file", log.path]),
        ]
        var runs: [String: [ChildRun]] = [:]
        for round in 0...rounds {
            for (name, command) in round % 2 == 0 ? commands : commands.reversed() {
                let run = try ChildRun.run(command)
                if round > 0 { runs[name, default: []].append(run) }
            }
        }
        let megabytes = Double(written.bytes) / 1e6
        var table = """
            triage-summary, small events: \(written.events) events of \(written.bytes / max(written.events, 1)) bytes \
            on average, \(String(format: "%.0f", megabytes)) MB; \(rounds) interleaved rounds after a warm-up
            | command | median s | events/s | MB/s | user CPU s | peak RSS |
            |---|---|---|---|---|---|

            """
        for (name, _) in commands {
            let sideRuns = runs[name] ?? []
            let seconds = Samples(sideRuns.map(\.seconds)).median
            let userSeconds = Samples(sideRuns.map(\.userSeconds)).median
            table += """
                | \(name) | \(String(format: "%.2f", seconds)) \
                | \(String(format: "%.0f", Double(written.events) / seconds)) \
                | \(String(format: "%.0f", megabytes / seconds)) | \(String(format: "%.2f", userSeconds)) \
                | \(ProcessMemory.mebibytes(sideRuns.map(\.peakResidentBytes).max() ?? 0)) |

                """
        }
        print(table)
    }

    /// Whether `faultline issues --json` counts the same events per fingerprint as jq; the benchmark stops if not.
    private static func countsAgree(faultline: String, jq: [String], log: URL) throws -> Int {
        let issues = try ChildRun.run([faultline, "issues", "--json", "--file", log.path]).output
        let rows = try JSONDecoder().decode(IssueList.self, from: issues).issues
        let faultlineCounts = Dictionary(
            uniqueKeysWithValues: rows.map { ($0.fingerprint.joined(separator: "\u{1F}"), $0.events) })
        let jqCounts = try JSONDecoder().decode([String: Int].self, from: try ChildRun.run(jq).output)
        guard faultlineCounts == jqCounts else {
            throw ChildRun.Failure(description: "faultline and jq disagree: \(faultlineCounts) against \(jqCounts)")
        }
        return jqCounts.count
    }

    /// What the check reads of `faultline issues --json`.
    private struct IssueList: Decodable {
        struct Row: Decodable {
            let fingerprint: [String]
            let events: Int
        }

        let issues: [Row]
    }

    private func report(
        written: LogCorpus.Written, faultline: [ChildRun], incident: [ChildRun], filtered: [ChildRun], jq: [ChildRun],
        small: ChildRun, agreed: Int
    ) throws {
        let megabytes = Double(written.bytes) / 1e6
        let events = Double(written.events)
        let faultlineSeconds = Samples(faultline.map(\.seconds))
        let incidentSeconds = Samples(incident.map(\.seconds))
        let filteredSeconds = Samples(filtered.map(\.seconds))
        let jqSeconds = Samples(jq.map(\.seconds))
        let faultlinePeak = faultline.map(\.peakResidentBytes).max() ?? 0
        print(
            """
            triage-summary: `faultline summary --json` and `jq` counting events per fingerprint over one JSON Lines \
            log of \(written.events) events, \(String(format: "%.0f", megabytes)) MB (\(agreed) fingerprints, \
            counts identical on both sides); \(rounds) interleaved rounds after a warm-up, page cache warm
            | side | median s | MB/s | events/s | peak RSS | ratio of jq's time |
            |---|---|---|---|---|---|
            | jq 1.6 | \(String(format: "%.2f", jqSeconds.median)) | \(String(format: "%.0f", megabytes / jqSeconds.median)) \
            | \(String(format: "%.0f", events / jqSeconds.median)) \
            | \(ProcessMemory.mebibytes(jq.map(\.peakResidentBytes).max() ?? 0)) | 1 |
            | faultline summary | \(String(format: "%.2f", faultlineSeconds.median)) \
            | \(String(format: "%.0f", megabytes / faultlineSeconds.median)) \
            | \(String(format: "%.0f", events / faultlineSeconds.median)) | \(ProcessMemory.mebibytes(faultlinePeak)) \
            | \(String(format: "%.1f", jqSeconds.median / faultlineSeconds.median))× faster |
            | faultline incident (signals on) | \(String(format: "%.2f", incidentSeconds.median)) \
            | \(String(format: "%.0f", megabytes / incidentSeconds.median)) \
            | \(String(format: "%.0f", events / incidentSeconds.median)) \
            | \(ProcessMemory.mebibytes(incident.map(\.peakResidentBytes).max() ?? 0)) \
            | \(String(format: "%.1f", jqSeconds.median / incidentSeconds.median))× faster |
            | faultline summary --where \(Self.tagCondition) | \(String(format: "%.2f", filteredSeconds.median)) \
            | \(String(format: "%.0f", megabytes / filteredSeconds.median)) \
            | \(String(format: "%.0f", events / filteredSeconds.median)) \
            | \(ProcessMemory.mebibytes(filtered.map(\.peakResidentBytes).max() ?? 0)) \
            | \(String(format: "%.1f", jqSeconds.median / filteredSeconds.median))× faster |

            memory against input size: faultline summary over a log of \(smallMegabytes) MiB made the same way \
            peaks at \(ProcessMemory.mebibytes(small.peakResidentBytes)); over \(self.megabytes) MiB at \
            \(ProcessMemory.mebibytes(faultlinePeak)) \
            (\(String(format: "%.2f", Double(faultlinePeak) / Double(small.peakResidentBytes)))×)
            """)
        let speed = megabytes / faultlineSeconds.median
        let ratio = jqSeconds.median / faultlineSeconds.median
        let side = { (runs: [ChildRun], seconds: Samples) -> [String: Double] in
            [
                "median_seconds": seconds.median, "megabytes_per_second": megabytes / seconds.median,
                "peak_rss_bytes": Double(runs.map(\.peakResidentBytes).max() ?? 0),
            ]
        }
        try BenchmarkResult.write(
            [
                BenchmarkResult(
                    name: "triage-summary",
                    what: "`faultline summary` over \(String(format: "%.0f", megabytes)) MB of JSON Lines",
                    faultline: String(format: "%.0f MB/s", speed)
                        + ", peak RSS \(ProcessMemory.mebibytes(faultlinePeak))",
                    peer: String(format: "jq %.0f MB/s", megabytes / jqSeconds.median), value: speed,
                    peerValue: megabytes / jqSeconds.median, ratio: String(format: "%.1f× faster", ratio),
                    target: "≥ 20×, ≥ 500 MB/s", met: ratio >= 20 && speed >= 500,
                    sides: [
                        .init("jq", side(jq, jqSeconds)), .init("faultline summary", side(faultline, faultlineSeconds)),
                        .init("faultline incident", side(incident, incidentSeconds)),
                        .init("faultline summary --where", side(filtered, filteredSeconds)),
                    ],
                    parameters: [
                        "events": "\(written.events)", "rounds": "\(rounds)",
                        "small log peak RSS bytes": "\(small.peakResidentBytes)",
                    ])
            ], to: json)
    }
}
