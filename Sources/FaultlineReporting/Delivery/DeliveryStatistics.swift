import FaultlineRecords
import Foundation

/// What an outbox's uploaders did, across runs: kept next to the outbox as `delivery-stats.json`, so that the
/// `faultline stats` command can show drops by reason.
public struct DeliveryStatistics: Hashable, Sendable, Codable, StatisticsFile {
    /// The file's name in the outbox directory.
    package static let fileName = "delivery-stats.json"

    /// When the statistics were last written.
    public var updated: Date?
    /// Envelopes the server accepted: of events, and of client reports and request outcomes sent on their own.
    public var delivered = 0
    /// Sends that failed and were kept for another attempt (network errors, 429, 502, 503, 504).
    public var retried = 0
    /// Events not delivered, by reason and category; those dropped by age are in ``expired``.
    public var discarded: [DiscardedEvents] = []
    /// Events and envelopes not delivered because they waited past the maximum age (``DeliveryConfiguration/maxAge``,
    /// `Reporter.Options.maxLogAge`), by category; reported upstream as `cache_overflow`, which client reports have
    /// for a cache that dropped what it held, as they have no reason for age.
    public var expired: [DiscardedEvents] = []
    /// Events and envelopes waiting to be sent when the statistics were written: a reporter's events in its log after
    /// the delivery cursor, and the outbox's envelopes. `nil` in files written before it was kept.
    public var waiting: Int?
    /// The last send that failed, and why; `nil` when none has, or in files written before it was kept.
    public var lastFailure: DeliveryFailure?
    /// When the endpoint last accepted a send: after ``lastFailure``, the endpoint has recovered. `nil` when it never
    /// has, or in files written before it was kept.
    public var lastDelivery: Date?
    /// What the client reports the endpoint accepted (or refused for good) have carried of ``discarded`` and
    /// ``expired``: the rest is the next report's, in this run or the next.
    package var reported: [DiscardedEvents] = []

    /// A send that failed: the endpoint's status and `X-Sentry-Error` (no status when no response came), and when.
    public struct DeliveryFailure: Hashable, Sendable, Codable {
        /// The HTTP status; `nil` when no response came (the connection failed or timed out).
        public var status: Int?
        /// The endpoint's `X-Sentry-Error`, when it said why.
        public var reason: String?
        /// When the response came, or the request failed.
        public var date: Date

        /// Whether the endpoint refused the DSN itself: 401, 403 or 404, a wrong key or project.
        public var refusedTheDSN: Bool { [401, 403, 404].contains(status ?? 0) }
    }

    package init() {}

    private enum CodingKeys: String, CodingKey {
        case updated, delivered, retried, discarded, expired, waiting, reported
        case lastFailure = "last_failure"
        case lastDelivery = "last_delivery"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        updated = try container.decodeIfPresent(Date.self, forKey: .updated)
        delivered = try container.decode(Int.self, forKey: .delivered)
        retried = try container.decode(Int.self, forKey: .retried)
        discarded = try container.decode([DiscardedEvents].self, forKey: .discarded)
        expired = try container.decodeIfPresent([DiscardedEvents].self, forKey: .expired) ?? []
        waiting = try container.decodeIfPresent(Int.self, forKey: .waiting)
        lastFailure = try container.decodeIfPresent(DeliveryFailure.self, forKey: .lastFailure)
        lastDelivery = try container.decodeIfPresent(Date.self, forKey: .lastDelivery)
        // A file written before reports were counted here had its drops reported by envelopes in the outbox.
        reported =
            try container.decodeIfPresent([DiscardedEvents].self, forKey: .reported) ?? reportable.discardedEvents
    }

    /// Reads the statistics stored in `directory`; empty ones when there are none or they cannot be read.
    package static func stored(in directory: URL) -> DeliveryStatistics { storedFile(in: directory) }

    /// What a client report says of ``discarded`` and ``expired``: all but the `internal` category (a client report never
    /// reports on client reports), those dropped by age as `cache_overflow`.
    private var reportable: DiscardCounts {
        var counts = DiscardCounts(discarded.filter { $0.category != .internal })
        for entry in expired where entry.category != .internal {
            counts.add(entry.quantity, .cacheOverflow, entry.category)
        }
        return counts
    }

    /// What no client report has carried yet.
    package var unreported: DiscardCounts {
        reportable.subtracting(DiscardCounts(reported))
    }

    /// Counts `report` as carried by a client report the endpoint accepted or refused for good.
    mutating func recordReported(_ report: DiscardCounts) {
        var counts = DiscardCounts(reported)
        counts.add(report)
        reported = counts.discardedEvents
    }

    /// Adds `quantity` events discarded for `reason`.
    mutating func recordDiscarded(_ reason: DiscardReason, _ category: DataCategory, quantity: Int) {
        if let index = discarded.firstIndex(where: { $0.reason == reason && $0.category == category }) {
            discarded[index].quantity += quantity
        } else {
            discarded.append(DiscardedEvents(reason: reason, category: category, quantity: quantity))
            discarded.sort { ($0.reason.rawValue, $0.category.rawValue) < ($1.reason.rawValue, $1.category.rawValue) }
        }
    }

    /// Adds `quantity` events of `category` dropped because they waited past the maximum age.
    mutating func recordExpired(_ category: DataCategory, quantity: Int) {
        if let index = expired.firstIndex(where: { $0.category == category }) {
            expired[index].quantity += quantity
        } else {
            expired.append(DiscardedEvents(reason: .cacheOverflow, category: category, quantity: quantity))
            expired.sort { $0.category.rawValue < $1.category.rawValue }
        }
    }

    /// Writes the statistics to `directory` as of `date`, replacing the file atomically.
    func store(in directory: URL, at date: Date) throws { try storeFile(in: directory, at: date) }
}
