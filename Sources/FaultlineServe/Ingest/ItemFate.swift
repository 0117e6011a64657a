import FaultlineRecords
import FaultlineReporting

/// What became of an item, other than an event, of a request serve answered 200 (events keep their own counts): stored
/// on this machine (in a log, or in a forward queue), or not stored, for a reason. Each item is counted once, by its
/// type.
enum ItemFate: Hashable, Sendable {
    case stored
    case notStored(Reason)

    /// Why an item was not stored.
    enum Reason: String, Sendable {
        /// Its id was stored already: transactions and intervals of request outcomes are stored once.
        case duplicate
        /// It could not be read: request outcomes that are not what the SDK writes.
        case unreadable
        /// The local log keeps no item of its type (`session`, `attachment`), and no forward route took it.
        case notKept = "not_kept"
        /// Its forward route's queue refused it (rate-limited, or unwritable): `faultline stats` says why.
        case notForwarded = "not_forwarded"
    }

    /// The outcome label it is counted under: `stored`, or the reason.
    var label: String {
        switch self {
        case .stored: "stored"
        case .notStored(let reason): reason.rawValue
        }
    }

    /// The type an item of type `type` is counted under: its own when Sentry's protocol or Faultline names it, else
    /// `other`, so that what a client calls its items cannot grow the counts.
    static func countedType(_ type: String) -> String {
        DataCategory(itemType: type) != nil ? type : "other"
    }
}
