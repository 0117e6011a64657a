import Foundation

/// One envelope waiting in the outbox.
struct OutboxEntry: Hashable, Sendable {
    /// The file's name, which sorts by age: `<unix time, 6 decimals>-<counter>-<random>.envelope`.
    let name: String
    /// The file's size in bytes.
    let size: Int
    /// The category of its first item, which decides the rate limit it waits for.
    let category: DataCategory
}
