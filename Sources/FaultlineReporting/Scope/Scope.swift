/// What every event carries besides its failure: the user, tags, contexts, release, environment and the recent
/// breadcrumbs (Sentry's scope). A value type, held by the ``Reporter``.
public struct Scope: Sendable {
    /// The signed-in user; `nil` until the app sets one.
    public var user: UserContext?
    /// Tags added to every event; an event's own classification tags win over these.
    public var tags: [String: String] = [:]
    /// Contexts added to every event: `os`, `device` and `runtime` are filled at start; set `app` and your own.
    public var contexts: [String: JSONValue] = RuntimeContexts.current
    /// Arbitrary data added to every event as its `extra` (Sentry's `setExtra`); an event's own extras win over
    /// these. Prefer ``tags`` for what you search or group by, ``contexts`` for structured data.
    public var extras: [String: JSONValue] = [:]
    /// The most breadcrumbs kept, oldest dropped first; 100 by default (Sentry's `maxBreadcrumbs`).
    public let maxBreadcrumbs: Int
    /// The recent breadcrumbs, oldest first.
    public private(set) var breadcrumbs: [Breadcrumb] = []
    /// The JSON of each of ``breadcrumbs``, encoded once when it entered the scope rather than for every event that
    /// carries it.
    private var encodedBreadcrumbs: [[UInt8]] = []

    /// Creates an empty scope with runtime contexts.
    public init(maxBreadcrumbs: Int = 100) {
        self.maxBreadcrumbs = max(0, maxBreadcrumbs)
    }

    /// Adds a breadcrumb, dropping the oldest past ``maxBreadcrumbs``.
    public mutating func addBreadcrumb(_ breadcrumb: Breadcrumb) {
        guard maxBreadcrumbs > 0 else { return }
        if breadcrumbs.count >= maxBreadcrumbs {
            breadcrumbs.removeFirst(breadcrumbs.count - maxBreadcrumbs + 1)
            encodedBreadcrumbs.removeFirst(encodedBreadcrumbs.count - maxBreadcrumbs + 1)
        }
        breadcrumbs.append(breadcrumb)
        encodedBreadcrumbs.append(EventEncoder.encode(breadcrumb))
    }

    /// Replaces each breadcrumb that `change` returns a new one for.
    mutating func replaceBreadcrumbs(_ change: (Breadcrumb) -> Breadcrumb?) {
        guard let changed = breadcrumbs.replacingChanged(change) else { return }
        breadcrumbs = changed
        encodedBreadcrumbs = changed.map(EventEncoder.encode)
    }

    /// The JSON of each breadcrumb when `carried` is the scope's own array of breadcrumbs, as in an event that carries
    /// them unchanged (`beforeSend` changing one makes a copy); `nil` otherwise.
    func encodedBreadcrumbs(ifSameAs carried: [Breadcrumb]) -> [[UInt8]]? {
        guard carried.count == breadcrumbs.count else { return nil }
        let isSameArray = carried.withUnsafeBufferPointer { carried in
            breadcrumbs.withUnsafeBufferPointer { $0.baseAddress == carried.baseAddress }
        }
        return isSameArray ? encodedBreadcrumbs : nil
    }

    /// Copies the scope into `event`; `user`, when given, replaces the scope's user for this event only.
    func apply(to event: inout SentryEvent, user override: UserContext?) {
        event.user = override ?? user
        event.tags.merge(tags) { own, _ in own }
        event.contexts.merge(contexts) { own, _ in own }
        if !extras.isEmpty { event.extra = (event.extra ?? [:]).merging(extras) { own, _ in own } }
        if !breadcrumbs.isEmpty { event.breadcrumbs = .init(breadcrumbs) }
    }
}
