/// What one event is grouped by, value by value, as Sentry's "event grouping information" shows it: the variant
/// that decided and each value that counted, after the normalization that made it stable (`<int>` for a number,
/// a generated class's random part as `<auto>`), so that a triager can see why two events are one issue or two.
package struct GroupingExplanation: Hashable, Sendable, Encodable {
    /// What decided, in Sentry's variant names.
    package enum Variant: String, Hashable, Sendable, Encodable {
        /// The fingerprint the event sent, with no `{{ default }}` in it.
        case fingerprint = "custom-fingerprint"
        /// In-app frames with the exception, or the exception alone when no frame counts (Sentry's app variant).
        case app
        /// Every frame with the exception, when frames count and none is in-app (Sentry's system variant).
        case system
        /// The template or the message, when the event has no exception or stack trace that counts.
        case `default`
        /// Nothing that counts: every such event is one issue.
        case fallback
    }

    /// One value that counted.
    package struct Value: Hashable, Sendable, Encodable {
        /// Where it is, by Sentry's component names: `exception/stacktrace/frame/function`,
        /// `chained-exception/exception/type`, `message`.
        package var path: String
        package var value: String

        package init(path: String, value: String) {
            self.path = path
            self.value = value
        }
    }

    package var variant: Variant
    /// In the order they are hashed: per exception (oldest first) its frames, then its type, `NSError` and value.
    package var values: [Value]

    package init(variant: Variant, values: [Value]) {
        self.variant = variant
        self.values = values
    }
}
