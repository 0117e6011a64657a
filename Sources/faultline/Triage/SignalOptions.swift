import ArgumentParser
import FaultlineTriage
import Foundation

/// The incident window's baseline and thresholds, for `incident`, and for `summary` and `issues` with `--since`.
struct SignalOptions: ParsableArguments {
    @Option(help: "The baseline that spikes compare with: the time before the window, such as 24h, 6h or 7d.")
    var baseline = "24h"

    @Option(help: "A spike is at least this many times the baseline's rate of events.")
    var spikeFactor: Double = 5

    @Option(help: "A spike has at least this many events in the window.")
    var spikeMinimum = 10

    @Option(help: "A route's failure rate or p95 is compared only from at least this many requests.")
    var minRequests = 100

    @Option(help: "A route regressed when its p95 in the newest release is at least this many times the previous's.")
    var latencyFactor = 1.5

    func validate() throws {
        guard let seconds = TimeExpression.duration(baseline), seconds > 0 else {
            throw ValidationError("'\(baseline)' is not a duration: use 6h, 24h or 7d.")
        }
        guard spikeFactor.isFinite, spikeFactor > 1 else {
            throw ValidationError("--spike-factor is a ratio above 1, such as 5.")
        }
        if spikeMinimum < 1 { throw ValidationError("--spike-minimum is a number of events, 1 or more.") }
        if minRequests < 1 { throw ValidationError("--min-requests is a number of requests, 1 or more.") }
        guard latencyFactor.isFinite, latencyFactor > 1 else {
            throw ValidationError("--latency-factor is a ratio above 1, such as 1.5.")
        }
    }

    /// The window from `start` to `end` with these thresholds.
    func window(from start: Double, to end: Double) -> SignalWindow {
        var window = SignalWindow(start: start, end: end)
        window.baseline = TimeExpression.duration(baseline) ?? window.baseline
        window.spikeFactor = spikeFactor
        window.spikeMinimum = spikeMinimum
        window.minimumRequests = minRequests
        window.latencyFactor = latencyFactor
        return window
    }
}
