import ArgumentParser
import FaultlineTriage

/// `faultline incident`: what is new, what is spiking, what regressed, since when and for whom, in one view.
struct IncidentCommand: AsyncParsableCommand, CommandWithExamples {
    static let configuration = CommandConfiguration(
        commandName: "incident",
        abstract: "What is new, spiking or regressed in the window (--since, 1h by default), since when, for whom.",
        discussion: """
            new: first seen in the window, with no event before it in the logs read. \
            spiking: not new, at least --spike-minimum events in the window, and its events per hour at least \
            --spike-factor times its rate in the baseline (the --baseline before the window; an issue with no event \
            in the baseline but older ones spikes on the minimum alone). \
            regressed: events in the newest release, none in the release before it, some in an older one (releases \
            are ordered by their first event). \
            since: the minute a new issue started, or the first minute in the window with at least --spike-factor \
            times the baseline's events per minute. \
            Routes, from the requests the reporters counted: failure rate spiking: at least --min-requests requests \
            in the window and in the baseline, and a share of failed requests at least --spike-factor times the \
            baseline's (a baseline without failures spikes on --spike-minimum failed requests). slower: its p95 in \
            the newest release at least --latency-factor times, and 10 ms more than, its p95 in the release before, \
            each from at least --min-requests requests.
            """)

    static let examples: [(commandLine: String, purpose: String)] = [
        ("faultline incident", "What is new, spiking or regressed in the last hour, against the day before it."),
        (
            "faultline incident --since 6h --baseline 7d --limit 5 --json",
            "A longer window against the week before it: the five most pressing issues, as JSON."
        ),
        ("faultline incident --since 15m --fail-on new,spiking", "Exit with status 3 when an issue is new or spiking."),
    ]

    @OptionGroup var options: TriageOptions
    @OptionGroup var signals: SignalOptions
    @OptionGroup var limit: LimitOption
    @OptionGroup var failOn: FailOnOption

    /// The window's start when --since is not given.
    private static let defaultSince = "1h"

    func validate() throws {
        _ = try options.window(defaultSince: Self.defaultSince)
    }

    func run() async throws {
        let scan = try await options.scan(signals: signals, defaultSince: Self.defaultSince)
        var routes: [RouteSignals] = []
        if let window = scan.window {
            routes = RouteSignals.signals(
                window: scan.routeRequests ?? RouteOutcomes(),
                baseline: try await options.baselineRequests(before: window), thresholds: window)
        }
        var report = IncidentReport(scan, routes: routes)
        let failing = failOn.failing(report.flagged)
        if let count = limit.limit { report = report.limited(to: count) }
        try options.print(report) { report.text(style: $0) }
        guard failing.isEmpty else {
            let signals = (failOn.signals ?? []).map(\.rawValue).joined(separator: ",")
            let issues = failing.count == 1 ? "1 issue is" : "\(failing.count) issues are"
            throw CommandFailure(message: "\(issues) flagged (--fail-on \(signals)).", status: .flagged)
        }
    }
}
