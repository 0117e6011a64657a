/// The floor under any capture that hands work to a background task: yielding a prebuilt value into an
/// `AsyncStream` that a waiting task consumes. Measured beside ``Reporter/capture(_:request:user:)`` in the same
/// regimes, it shows what the hand-off itself costs on this machine.
actor QueueFloor {
    private let input: AsyncStream<Int>.Continuation
    /// The values the consumer has taken in all.
    private(set) var consumed = 0
    private var waiter: (count: Int, continuation: CheckedContinuation<Void, Never>)?

    /// - Parameter work: How long the consumer computes for each value before taking the next, as a writer that
    ///   assembles and writes an event does; none by default.
    init(work: Duration = .zero) {
        let (stream, input) = AsyncStream.makeStream(of: Int.self)
        self.input = input
        Task { [weak self] in
            let clock = ContinuousClock()
            for await _ in stream {
                let end = clock.now + work
                while clock.now < end {}
                await self?.consume()
            }
        }
    }

    deinit { input.finish() }

    /// Hands `value` to the consumer.
    nonisolated func yield(_ value: Int) {
        input.yield(value)
    }

    /// Hands `value` to the consumer from the actor, as a capture does from the reporter: the caller's hop onto an
    /// idle actor and back, and the hand-off.
    func yieldOnActor(_ value: Int) {
        input.yield(value)
    }

    /// Returns once the consumer has taken `count` values in all.
    func waitUntilConsumed(_ count: Int) async {
        guard consumed < count else { return }
        await withCheckedContinuation { waiter = (count, $0) }
    }

    private func consume() {
        consumed += 1
        if let waiter, consumed >= waiter.count {
            self.waiter = nil
            waiter.continuation.resume()
        }
    }
}
