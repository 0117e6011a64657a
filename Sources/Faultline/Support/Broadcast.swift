/// Fans elements out to any number of `AsyncStream` subscribers. A value type: keep it inside an actor.
struct Broadcast<Element: Sendable>: Sendable {
    private var continuations: [Int: AsyncStream<Element>.Continuation] = [:]
    private var nextID = 0

    /// A new stream that receives every element yielded from now on, keeping the newest `limit` while unread.
    mutating func subscribe(bufferingNewest limit: Int = 100) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: .bufferingNewest(limit))
        continuations[nextID] = continuation
        nextID += 1
        return stream
    }

    /// Sends `element` to every subscriber, forgetting those whose stream has ended.
    mutating func yield(_ element: Element) {
        for (id, continuation) in continuations {
            if case .terminated = continuation.yield(element) {
                continuations[id] = nil
            }
        }
    }
}
