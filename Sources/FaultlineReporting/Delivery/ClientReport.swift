import FaultlineRecords
import Foundation

/// Counts what was not delivered, by reason and category, until a `client_report` item carries the counts to the
/// server (Sentry developer docs, "Client Reports").
struct ClientReport: Sendable {
    private struct Key: Hashable {
        let reason: DiscardReason
        let category: DataCategory
    }

    private var quantities: [Key: Int] = [:]

    var isEmpty: Bool { quantities.isEmpty }

    mutating func record(_ reason: DiscardReason, _ category: DataCategory, quantity: Int = 1) {
        quantities[Key(reason: reason, category: category), default: 0] += quantity
    }

    /// Adds another report's counts, such as those of an item that was not delivered.
    mutating func merge(_ other: ClientReport) {
        quantities.merge(other.quantities, uniquingKeysWith: +)
    }

    /// Takes the counts out of the report, leaving it empty.
    mutating func drain() -> ClientReport {
        defer { quantities = [:] }
        return self
    }

    /// The counts as the report's `discarded_events`, sorted by reason and category.
    var discardedEvents: [DiscardedEvents] {
        quantities.map { DiscardedEvents(reason: $0.key.reason, category: $0.key.category, quantity: $0.value) }
            .sorted { ($0.reason.rawValue, $0.category.rawValue) < ($1.reason.rawValue, $1.category.rawValue) }
    }

    /// The `client_report` envelope item, stamped `timestamp`.
    func item(at timestamp: Date) throws -> Envelope.Item {
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
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Envelope.Item(type: "client_report", payload: try encoder.encode(payload))
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
