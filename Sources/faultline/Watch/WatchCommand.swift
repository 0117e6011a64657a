import ArgumentParser
import FaultlineRecords
import FaultlineTriage
import Foundation

/// `faultline watch`: reads the logs every minute and posts each newly flagged issue (new, spiking, regressed) to a
/// webhook once, across restarts. It only reads the logs, so a receiver that is down delays its alerts and nothing
/// else: `serve` and the app keep writing.
struct WatchCommand: AsyncParsableCommand, CommandWithExamples {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Post each newly flagged issue (new, spiking, regressed) to a webhook once: Slack, ntfy or JSON.",
        discussion: """
            Every --every, the logs are read as 'faultline incident' reads them (--since, 1h by default, against \
            --baseline) and each issue flagged with a signal not yet posted is posted, at most --max-posts a round \
            (the rest wait for the next). A post that meets a network error, 408, 429 or 5xx is tried up to three \
            times, with pauses of up to 0.5 and 1 s (or the receiver's Retry-After, up to a minute); another status \
            fails at once. One that fails is tried again the next round. What was posted is kept in \
            --state, written after each post, so a restart posts nothing twice; an issue that loses a signal can \
            be posted again when it regains it.
            """)

    static let examples: [(commandLine: String, purpose: String)] = [
        (
            "faultline watch --webhook https://hooks.slack.com/services/T/B/X",
            "Post to a Slack channel each issue that becomes new, spiking or regressed."
        ),
        ("faultline watch --webhook https://ntfy.sh/my-app-alerts --format ntfy", "Push them to phones with ntfy."),
        ("faultline watch --webhook http://127.0.0.1:9000/hook --format json --once", "One round, for cron."),
    ]

    @Option(help: "The URL alerts are posted to.")
    var webhook: String

    @Option(help: "The body: slack (an incoming webhook's JSON), ntfy (text with a Title header) or json.")
    var format = WebhookFormat.slack

    @Option(help: "How often the logs are read, such as 30s, 1m or 5m.")
    var every = "1m"

    @Option(help: "The most alerts posted in a round; the others wait for the next.")
    var maxPosts = 10

    @Option(help: "The file that keeps what was posted; by default watch-state.json in the log directory.")
    var state: String?

    @Flag(help: "Read and post once, then exit: 0 when every post succeeded, 1 when one failed.")
    var once = false

    @OptionGroup var options: TriageOptions
    @OptionGroup var signals: SignalOptions

    /// The window's start when --since is not given.
    private static let defaultSince = "1h"

    func validate() throws {
        guard let url = URL(string: webhook), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
            url.host != nil
        else { throw ValidationError("--webhook is an http or https URL.") }
        guard let seconds = TimeExpression.duration(every), seconds >= 1 else {
            throw ValidationError("'\(every)' is not a duration of a second or more: use 30s, 1m or 5m.")
        }
        if maxPosts < 1 { throw ValidationError("--max-posts is a number of alerts, 1 or more.") }
        _ = try options.window(defaultSince: Self.defaultSince)
    }

    func run() async throws {
        guard let url = URL(string: webhook) else {
            throw CommandFailure(message: "--webhook is an http or https URL.", status: .usage)
        }
        let poster = WebhookPoster(url: url)
        let stateURL = try stateFile()
        let interval = TimeExpression.duration(every) ?? 60
        var flaggedBefore: Int?
        while true {
            let round = try await round(poster: poster, stateURL: stateURL)
            // a round that posted nothing over the issues flagged before is not reported: a quiet watch prints
            // nothing every minute
            if !round.isQuiet || round.flagged != flaggedBefore { StandardError.say(round.said, as: "faultline watch") }
            flaggedBefore = round.flagged
            let failed = round.failed
            if once {
                if failed > 0 {
                    throw CommandFailure(message: "\(failed) of the alerts not posted.", status: .failed)
                }
                return
            }
            try await Task.sleep(for: .seconds(interval))
        }
    }

    /// Reads the logs, posts what is newly flagged, and returns what the round did: how many posts failed, whether it
    /// had nothing to post, how many issues are flagged, and the line that says so.
    private func round(poster: WebhookPoster, stateURL: URL) async throws -> (
        failed: Int, isQuiet: Bool, flagged: Int, said: String
    ) {
        let report = IncidentReport(try await options.scan(signals: signals, defaultSince: Self.defaultSince))
        var state = try AlertState.load(from: stateURL)
        let alerts = report.flagged.flatMap { row in
            (row.signals.map(Self.signalNames) ?? []).map { (row: row, signal: $0, key: Self.key(row, $0)) }
        }
        state.keepOnly(Set(alerts.map(\.key)))
        let pending = alerts.filter { !state.hasPosted($0.key) }
        var (posted, failed) = (0, 0)
        for alert in pending.prefix(maxPosts) {
            let (body, headers) = try format.request(for: alert.row, signal: alert.signal)
            do {
                try await poster.post(body, headers: headers)
                state.markPosted(alert.key, at: RFC3339.string(from: Date()))
                try state.save(to: stateURL)
                posted += 1
            } catch {
                StandardError.say(
                    "could not post \(alert.signal) issue \(alert.row.id): \(error)", as: "faultline watch")
                failed += 1
            }
        }
        try state.save(to: stateURL)
        let waiting = max(0, pending.count - maxPosts)
        let said =
            "alerts: \(posted) posted, \(failed) failed, \(waiting) waiting for the next round; "
            + "issues flagged: \(report.flagged.count)."
        return (failed, pending.isEmpty, report.flagged.count, said)
    }

    /// `new`, `spiking` and `regressed`, as the issue has them.
    private static func signalNames(_ signals: IssueSignals) -> [String] {
        [("new", signals.isNew), ("spiking", signals.isSpiking), ("regressed", signals.isRegressed)]
            .filter(\.1).map(\.0)
    }

    /// The issue's fingerprint and the signal: stable however its shown id is abbreviated.
    private static func key(_ row: IssueRow, _ signal: String) -> String {
        row.fingerprint.joined(separator: "\u{1F}") + "\u{1E}" + signal
    }

    private func stateFile() throws -> URL {
        if let state { return URL(fileURLWithPath: state) }
        guard let directory = options.logDirectory else {
            throw CommandFailure(
                message: "--state is needed with --file: name where to keep what was posted.", status: .usage)
        }
        return directory.appendingPathComponent("watch-state.json")
    }
}
