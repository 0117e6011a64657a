/// Why an event was not delivered, as client reports name it (Sentry developer docs, "Client Reports").
public enum DiscardReason: String, Hashable, Sendable, Codable, CaseIterable {
    /// The reporter's queue of events waiting to be written was full.
    case queueOverflow = "queue_overflow"
    /// The outbox was full, and its oldest envelope was deleted to make room.
    case cacheOverflow = "cache_overflow"
    /// The server had rate-limited the event's category when it was captured.
    case ratelimitBackoff = "ratelimit_backoff"
    /// The server refused the envelope for good: 413, another 4xx than 429, or 500.
    case sendError = "send_error"
    /// The `beforeSend` hook returned `nil`.
    case beforeSend = "before_send"
    /// ``Reporter/Options/sampleRate`` did not sample the event.
    case sampleRate = "sample_rate"
    /// An event processor dropped the event: ``Reporter/Options/fingerprintLimit`` suppressed it, as sentry-python
    /// reports the events its Dedupe integration drops.
    case eventProcessor = "event_processor"
    /// Faultline failed: the envelope could not be written, or a stored one could not be read.
    case internalSDKError = "internal_sdk_error"
}
