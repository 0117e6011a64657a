import Foundation

/// Exponential backoff with jitter: the n-th retry waits `initial × multiplier^(n-1)`, capped at ``maximum``, then
/// shortened by a random share of up to ``jitter`` so that clients that failed together do not retry together.
public struct Backoff: Hashable, Sendable {
    /// The delay before the first retry; 0.5 seconds by default.
    public var initial: Duration
    /// The growth factor between retries; 2 by default.
    public var multiplier: Double
    /// The longest delay; 30 seconds by default.
    public var maximum: Duration
    /// The largest share of a delay removed at random, from 0 (none) to 1 (full jitter); 0.5 by default.
    public var jitter: Double

    /// Creates a backoff; see the properties for the defaults.
    public init(
        initial: Duration = .milliseconds(500), multiplier: Double = 2, maximum: Duration = .seconds(30),
        jitter: Double = 0.5
    ) {
        self.initial = initial
        self.multiplier = multiplier
        self.maximum = maximum
        self.jitter = min(max(jitter, 0), 1)
    }

    /// The delay before retry number `retry` (1 for the first retry).
    public func delay(beforeRetry retry: Int, using generator: inout some RandomNumberGenerator) -> Duration {
        let growth = pow(multiplier, Double(max(0, retry - 1)))
        // In seconds, capped before it becomes a Duration: after about 70 doublings `initial × growth` no longer fits
        // one (an uploader retrying through a long outage trapped there).
        let full = min(initial / .seconds(1) * growth, maximum / .seconds(1))
        let kept = 1 - jitter * Double.random(in: 0..<1, using: &generator)
        return .seconds(full * kept)
    }

    /// The delay before retry number `retry`, with the system's random numbers.
    public func delay(beforeRetry retry: Int) -> Duration {
        var generator = SystemRandomNumberGenerator()
        return delay(beforeRetry: retry, using: &generator)
    }
}
