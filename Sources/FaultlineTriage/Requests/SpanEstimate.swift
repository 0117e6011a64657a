import FaultlineLogReading
import FaultlineRecords

/// Requests of a route estimated from the spans of sampled transactions, as Sentry extrapolates: each span stands for
/// 1 / its trace's sample rate requests (a trace sampled at 25 % for 4). A span whose transaction does not say its
/// sample rate counts once, and is counted apart (``unweightedSpans``) so the estimate can say it is a floor.
package struct SpanEstimate: Hashable, Sendable {
    /// The spans read.
    package private(set) var spans = 0
    /// Spans whose transaction did not say its sample rate, each counted as one request.
    package private(set) var unweightedSpans = 0
    /// The requests they stand for, by outcome.
    package private(set) var outcomes: [String: Double] = [:]
    /// Their durations, each counted as many times as requests it stands for (rounded), so that percentiles weigh
    /// spans of traces sampled at different rates as the requests they stand for.
    package private(set) var durations = LatencyHistogram()
    /// The sample rates of their traces.
    package private(set) var sampleRates: Set<Double> = []

    package init() {}

    /// The requests they stand for.
    package var requests: Double { outcomes.values.reduce(0, +) }
    /// The requests they stand for that failed.
    package var failures: Double { requests - (outcomes[RequestOutcomes.success] ?? 0) }

    /// Counts `request`, a span of a trace sampled at `sampleRate` (`nil` when unknown).
    mutating func add(_ request: TransactionRecord.Request, sampleRate: Double?) {
        let weight = sampleRate.map { 1 / $0 } ?? 1
        spans += 1
        if let sampleRate { sampleRates.insert(sampleRate) } else { unweightedSpans += 1 }
        outcomes[request.outcome, default: 0] += weight
        durations.record(request.duration, count: max(1, Int(weight.rounded())))
    }

    /// Adds the spans of `other`.
    mutating func merge(_ other: SpanEstimate) {
        spans += other.spans
        unweightedSpans += other.unweightedSpans
        outcomes.merge(other.outcomes, uniquingKeysWith: +)
        durations.merge(other.durations)
        sampleRates.formUnion(other.sampleRates)
    }
}
