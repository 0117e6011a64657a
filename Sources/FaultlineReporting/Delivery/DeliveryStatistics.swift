import Foundation

/// What an outbox's uploaders did, across runs: kept next to the outbox as `delivery-stats.json`, so that the
/// `faultline stats` command can show drops by reason.
public struct DeliveryStatistics: Hashable, Sendable, Codable {
    /// The file's name in the outbox directory.
    public static let fileName = "delivery-stats.json"

    /// When the statistics were last written.
    public var updated: Date?
    /// Envelopes the server accepted.
    public var delivered = 0
    /// Sends that failed and were kept for another attempt (network errors, 429, 502, 503, 504).
    public var retried = 0
    /// Events not delivered, by reason and category.
    public var discarded: [DiscardedEvents] = []
    /// Events and envelopes waiting to be sent when the statistics were written: a reporter's events in its log after
    /// the delivery cursor, and the outbox's envelopes. `nil` in files written before it was kept.
    public var waiting: Int?

    public init() {}

    /// Reads the statistics stored in `directory`; empty ones when there are none or they cannot be read.
    public static func stored(in directory: URL) -> DeliveryStatistics {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let data = try? Data(contentsOf: directory.appendingPathComponent(fileName)),
            let statistics = try? decoder.decode(DeliveryStatistics.self, from: data)
        else { return DeliveryStatistics() }
        return statistics
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

    /// Writes the statistics to `directory`, replacing the file atomically.
    func store(in directory: URL, at date: Date) throws {
        var stamped = self
        stamped.updated = date
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        encoder.dateEncodingStrategy = .iso8601
        try encoder.encode(stamped).write(to: directory.appendingPathComponent(Self.fileName), options: .atomic)
    }
}
