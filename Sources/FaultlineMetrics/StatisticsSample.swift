import FaultlineRecords
import FaultlineReporting

/// One reading of everything ``ReporterMetrics`` publishes, with dimension values from fixed sets.
struct StatisticsSample: Equatable {
    /// The `kind` values captured events are counted under; any other `error.kind` (set by `beforeSend`, say) is
    /// counted as `other`.
    static let kinds: Set<String> = Set(FailureKind.allCases.map(\.rawValue)).union(["other", "message"])

    var captured: [String: Int] = [:]
    var dropped: [String: Int] = [:]
    var delivered = 0
    var retried = 0
    var refreshes: [String: Int] = [:]
    /// Events and envelopes waiting to be sent.
    var outboxEnvelopes = 0
    /// The requests counted in the intervals the reporter wrote.
    var requests: RequestTotals

    init(of reporter: Reporter) async {
        let statistics = await reporter.statistics
        requests = await reporter.requestTotals
        for (kind, count) in statistics.captured {
            captured[Self.kinds.contains(kind) ? kind : "other", default: 0] += count
        }
        refreshes = ["refreshed": statistics.refreshes, "expired": statistics.sessionExpiries]
        guard let delivery = statistics.delivery else {
            // Without an uploader, nothing tells client reports what was dropped: the reporter's counts do.
            dropped = [
                DiscardReason.beforeSend.rawValue: statistics.droppedByBeforeSend,
                DiscardReason.queueOverflow.rawValue: statistics.droppedByQueueOverflow,
                DiscardReason.sampleRate.rawValue: statistics.droppedBySampleRate,
                DiscardReason.eventProcessor.rawValue: statistics.suppressedByFingerprintLimit,
                DiscardReason.internalSDKError.rawValue: statistics.failedWrites,
            ]
            return
        }
        for discarded in delivery.discarded where discarded.category == .error {
            dropped[discarded.reason.rawValue, default: 0] += discarded.quantity
        }
        delivered = delivery.delivered
        retried = delivery.retried
        outboxEnvelopes = delivery.waiting ?? 0
    }
}
