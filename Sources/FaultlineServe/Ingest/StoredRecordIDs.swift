/// The ids of the records serve stored (events, transactions, request-outcome intervals), so that a record a client
/// sends again is stored once: the most recent ``capacity`` of them, the oldest forgotten first, and those a request is
/// storing at this moment.
///
/// A record is *in flight* from the moment a request claims it until it is kept or given up (``settle(_:kept:)``).
struct StoredRecordIDs {
    /// How a request's claim on a record's id was answered.
    enum Claim: Equatable {
        /// The record is new: it is in flight, for the request to store it and then settle it.
        case claimed
        /// The record was stored already.
        case stored
        /// Another request is storing it at this moment.
        case inFlight
    }

    /// How many ids are remembered.
    let capacity: Int
    private var stored: Set<String> = []
    /// The remembered ids as a ring, the oldest at `oldest` once it is full.
    private var order: [String] = []
    private var oldest = 0
    private var inFlight: Set<String> = []

    /// Remembers the last `capacity` distinct ids of `ids`, in the order they were stored.
    init(remembering ids: [String], capacity: Int) {
        self.capacity = capacity
        for id in ids.suffix(capacity) { remember(id) }
    }

    /// Claims the record `id` for a request that stores it, unless it was stored or is in flight.
    mutating func claim(_ id: String) -> Claim {
        if stored.contains(id) { return .stored }
        return inFlight.insert(id).inserted ? .claimed : .inFlight
    }

    /// Ends the flight of the record `id`: remembered as stored when it was `kept`, else free to be claimed again.
    mutating func settle(_ id: String, kept: Bool) {
        inFlight.remove(id)
        if kept { remember(id) }
    }

    private mutating func remember(_ id: String) {
        guard stored.insert(id).inserted else { return }
        if order.count < capacity {
            order.append(id)
        } else {
            stored.remove(order[oldest])
            order[oldest] = id
            oldest = (oldest + 1) % capacity
        }
    }
}
