import FaultlineRecords
import Foundation

/// Counts of records not delivered, by reason and data category: what a reporter dropped in its run
/// (``Reporter/Statistics``), and what a client report carries to the server (Sentry developer docs, "Client Reports").
package struct DiscardCounts: Hashable, Sendable {
    private struct Key: Hashable {
        let reason: DiscardReason
        let category: DataCategory
    }

    private var quantities: [Key: Int] = [:]

    package init() {}

    /// The counts of `discarded`.
    package init(_ discarded: [DiscardedEvents]) {
        for entry in discarded { add(entry.quantity, entry.reason, entry.category) }
    }

    var isEmpty: Bool { quantities.isEmpty }

    /// How many records of `category` were dropped for `reason`.
    subscript(reason: DiscardReason, category: DataCategory) -> Int {
        quantities[Key(reason: reason, category: category)] ?? 0
    }

    mutating func add(_ quantity: Int, _ reason: DiscardReason, _ category: DataCategory) {
        guard quantity != 0 else { return }
        quantities[Key(reason: reason, category: category), default: 0] += quantity
    }

    /// Adds the counts of `other`.
    mutating func add(_ other: DiscardCounts) {
        quantities.merge(other.quantities, uniquingKeysWith: +)
    }

    /// The counts past those of `earlier`, leaving out any that `earlier` has as many of or more.
    func subtracting(_ earlier: DiscardCounts) -> DiscardCounts {
        var rest = DiscardCounts()
        for (key, quantity) in quantities where quantity > earlier.quantities[key, default: 0] {
            rest.quantities[key] = quantity - earlier.quantities[key, default: 0]
        }
        return rest
    }

    /// The counts as a list sorted by reason and category, as a client report's `discarded_events` lists them.
    package var discardedEvents: [DiscardedEvents] {
        quantities.map { DiscardedEvents(reason: $0.key.reason, category: $0.key.category, quantity: $0.value) }
            .sorted { ($0.reason.rawValue, $0.category.rawValue) < ($1.reason.rawValue, $1.category.rawValue) }
    }

    /// The `client_report` envelope item of the counts, stamped `timestamp`.
    func clientReportItem(at timestamp: Date) -> Envelope.Item {
        let payload: JSONValue = [
            "timestamp": .string(RFC3339.string(from: timestamp)),
            "discarded_events": .array(
                discardedEvents.map {
                    [
                        "reason": .string($0.reason.rawValue), "category": .string($0.category.rawValue),
                        "quantity": .int($0.quantity),
                    ]
                }),
        ]
        return Envelope.Item(type: "client_report", payload: payload.compactJSON)
    }
}

/// How many events of a category were not delivered for a reason.
public struct DiscardedEvents: Hashable, Sendable, Codable {
    public var reason: DiscardReason
    public var category: DataCategory
    public var quantity: Int

    public init(reason: DiscardReason, category: DataCategory, quantity: Int) {
        self.reason = reason
        self.category = category
        self.quantity = quantity
    }
}
