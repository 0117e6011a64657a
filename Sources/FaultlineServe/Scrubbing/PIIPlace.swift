/// Where a value is in an event, as a Relay PII selector reads it: the path of keys and indexes from the event down
/// to it, the types of each level, and how far the value may hold user data.
struct PIIPlace: Sendable {
    /// One level of the path: a member's key (or a pair's), or an element's index, and the types of the value there.
    struct Level: Sendable {
        var key: String? = nil
        var index: Int? = nil
        var types: PIIValueTypes = []
    }

    /// How far a value may hold user data, as Relay's event schema says of each field (its `pii` attribute).
    enum Sensitivity: Sendable {
        /// Never: ids, times, the SDK, grouping's inputs. No selector reaches it.
        case none
        /// Maybe: an exception's value, a frame's paths, a context's fields. Only a selector that names the place
        /// reaches it: a path of keys, or a protocol type at its start (`$error.value`), not `$string` or `**`.
        case maybe
        /// Yes: `extra`, tags, the request's data, headers and cookies, the user, breadcrumbs' messages and data,
        /// frame variables. Every selector that matches reaches it.
        case user
    }

    /// The levels from the event's members down to the value (the event itself is none).
    var levels: [Level]
    var sensitivity: Sensitivity

    /// The key of the value's member or pair.
    var key: String? { levels.last?.key }
}
