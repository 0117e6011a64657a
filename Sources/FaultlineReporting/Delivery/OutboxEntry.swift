/// One envelope in the outbox, as the uploader sends it.
struct OutboxEntry: Hashable, Sendable {
    /// Its number in the outbox: envelopes are numbered in the order they were stored.
    let serial: Int
    /// The category of its first item, which decides the rate limit it waits for.
    let category: DataCategory
}
