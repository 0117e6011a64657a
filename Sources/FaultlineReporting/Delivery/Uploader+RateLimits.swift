extension Uploader {
    /// How long the rate limits the endpoint announced still hold back `envelope`, and the category they hold back;
    /// `nil` when it may be sent now. A relay passes them on to its own clients, as Sentry's Relay does.
    public func rateLimit(of envelope: Envelope) -> (wait: Duration, category: DataCategory)? {
        guard let category = DataCategory(rateLimiting: envelope) else { return nil }
        let now = clock.now
        guard let deadline = rateLimits.deadline(for: category, at: now) else { return nil }
        return (deadline - now, category)
    }
}
