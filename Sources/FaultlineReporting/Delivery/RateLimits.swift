import Faultline
import Foundation

/// The rate limits a Sentry-compatible server announced, per data category plus one for all categories (Sentry
/// developer docs, "Rate Limiting").
///
/// - `X-Sentry-Rate-Limits` is read on every response, whatever its status: `retry_after:categories:scope:…`
///   entries separated by commas, `retry_after` in seconds (fractions accepted), `categories` separated by
///   semicolons, an empty list meaning all categories. Unknown categories are ignored; an entry naming only unknown
///   categories is ignored entirely.
/// - Without that header, a `429` limits all categories for its `Retry-After` (seconds or an HTTP-date), or for
///   60 seconds when it has none.
/// - When limits overlap, the later deadline wins.
///
/// Deadlines are `Instant`s of the clock its owner runs on.
struct RateLimits<Instant: InstantProtocol<Duration>>: Sendable {
    /// How long a `429` without `Retry-After` limits all categories: 60 seconds.
    static var defaultRetryAfter: Duration { .seconds(60) }

    private var allCategoriesUntil: Instant?
    private var categoryUntil: [DataCategory: Instant] = [:]

    /// Reads the limits a response announced.
    ///
    /// - Parameters:
    ///   - status: The response's HTTP status.
    ///   - rateLimits: Its `X-Sentry-Rate-Limits` value.
    ///   - retryAfter: Its `Retry-After` value.
    ///   - now: When the response arrived.
    mutating func update(status: Int, rateLimits: String?, retryAfter: String?, now: Instant) {
        if let rateLimits, !rateLimits.trimmingCharacters(in: .whitespaces).isEmpty {
            for entry in rateLimits.split(separator: ",") { apply(entry, now: now) }
        } else if status == 429 {
            let delay = retryAfter.flatMap { RetryAfter.delay(from: $0) } ?? Self.defaultRetryAfter
            limitAll(until: now.advanced(by: delay))
        }
    }

    /// When `category` may be sent again, or `nil` when it is not limited at `now`.
    func deadline(for category: DataCategory, at now: Instant) -> Instant? {
        let deadlines = [allCategoriesUntil, category == .internal ? nil : categoryUntil[category]]
        guard let latest = deadlines.compactMap({ $0 }).max(), latest > now else { return nil }
        return latest
    }

    private mutating func apply(_ entry: Substring, now: Instant) {
        let fields = entry.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count >= 2, let seconds = Double(fields[0].trimmingCharacters(in: .whitespaces)),
            seconds.isFinite, seconds >= 0
        else { return }
        let deadline = now.advanced(by: .milliseconds(Int64((seconds * 1000).rounded(.up))))
        let names = fields[1].split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        guard !names.isEmpty else {
            limitAll(until: deadline)
            return
        }
        for category in names.compactMap(DataCategory.init(rawValue:)) {
            categoryUntil[category] = max(categoryUntil[category] ?? deadline, deadline)
        }
    }

    private mutating func limitAll(until deadline: Instant) {
        allCategoriesUntil = max(allCategoriesUntil ?? deadline, deadline)
    }
}
