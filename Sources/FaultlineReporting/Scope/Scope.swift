import FaultlineRecords

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
    /// The fingerprint every event gets instead of its own, which groups it into an issue (Sentry's
    /// `setFingerprint`); `nil` by default, keeping each event's. `{{ default }}` in it stands for the event's own
    /// fingerprint, so `["{{ default }}", "checkout"]` splits an issue by flow. Set it for one capture with the
    /// `scope:` of a `capture`; ``Reporter/Options/fingerprintLimit`` then counts events by it too.
    public var fingerprint: [String]?
    /// The level every event gets instead of its own (Sentry's `setLevel`), such as `.warning` for a failure the app
    /// expects; `nil` by default.
    public var level: SentryEvent.Level?
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

    /// `custom` with each `{{ default }}` (or `{{default}}`) in it replaced by `own`, the event's own fingerprint;
    /// left for the server to expand when the event has none of its own.
    static func fingerprint(_ custom: [String], expanding own: [String]?) -> [String] {
        guard let own else { return custom }
        return custom.flatMap { part in
            part.filter { $0 != " " } == "{{default}}" ? own : [part]
        }
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
        if let level { event.level = level }
        if let fingerprint { event.fingerprint = Self.fingerprint(fingerprint, expanding: event.fingerprint) }
        event.tags.merge(tags) { own, _ in own }
        event.contexts.merge(contexts) { own, _ in own }
        if !extras.isEmpty { event.extra = (event.extra ?? [:]).merging(extras) { own, _ in own } }
        if !breadcrumbs.isEmpty { event.breadcrumbs = .init(breadcrumbs) }
    }
}
