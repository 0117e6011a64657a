/// The window an incident is looked at in, the baseline before it, and the thresholds that flag an issue: what
/// `faultline incident` and the `--new`, `--spiking` and `--regressed` filters compare. The definitions, so that
/// people can trust them:
///
/// - **New**: the first event in the logs read is in the window; it had no event before.
/// - **Spiking**: not new, at least ``spikeMinimum`` events in the window, and its rate in the window (events per
///   hour) at least ``spikeFactor`` times its rate in the baseline, the ``baseline`` seconds before the window (an
///   issue with no event in the baseline but events before it spikes on the minimum alone).
/// - **Regressed**: it has events in the newest release, none in the release before it, and events in an older one.
///   **New in release**: events in the newest release and in no older one. Releases are ordered by their first event.
/// - **Failure rate spiking** (a route): at least ``minimumRequests`` requests in the window and in the baseline, and
///   a share of failed requests in the window at least ``spikeFactor`` times the baseline's (a baseline without failures
///   spikes on ``spikeMinimum`` failed requests alone).
/// - **Latency regressed** (a route): its p95 duration in the newest release at least ``latencyFactor`` times, and
///   ``latencyFloor`` seconds more than, its p95 in the release before, each from at least ``minimumRequests`` requests
///   (the newest release's in the window, the one before's in the baseline and the window). Releases are ordered by
///   their first requests.
/// - **Since**: when a new issue started; the first minute in the window in which a spiking issue had at least
///   ``spikeFactor`` times its baseline's events per minute (and at least one); a regressed issue's first event in the
///   window.
package struct SignalWindow: Hashable, Sendable {
    /// The window, seconds since 1970: events at or after `start` and before `end`.
    package var start: Double
    package var end: Double
    /// The length of the baseline before the window, in seconds: 24 hours by default.
    package var baseline: Double = 24 * 3600
    /// How many times its baseline rate an issue's window rate must be to spike: 5 by default.
    package var spikeFactor: Double = 5
    /// The fewest events in the window a spiking issue has: 10 by default, so that 1 → 5 is no spike.
    package var spikeMinimum = 10
    /// The fewest requests a route's rate or percentile is compared from: 100 by default, so that 1 failure in 3
    /// requests is no spike.
    package var minimumRequests = 100
    /// How many times the release before's p95 a route's p95 in the newest release must be to regress: 1.5 by default.
    package var latencyFactor = 1.5
    /// How many seconds more than the release before's p95 it must also be: 10 ms by default, so that 2 → 4 ms is no
    /// regression.
    package var latencyFloor = 0.01

    /// A window from `start` to `end`, with the default baseline and thresholds.
    package init(start: Double, end: Double) {
        self.start = start
        self.end = end
    }

    /// Whether events after ``end`` count as the window's too: a window that runs to now (no `--until`) keeps the
    /// events of a clock that runs ahead, so that no event is left out; its rates still use ``end``.
    package var includesLaterEvents = false

    /// Where the baseline starts.
    package var baselineStart: Double { start - baseline }

    /// Whether an event at `time` is before the window's end, or counts as if it were.
    func contains(before time: Double) -> Bool {
        time < end || includesLaterEvents
    }
}
