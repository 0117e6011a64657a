import Foundation

/// Writes captured events off the capturing caller's path, in capture order: each to the local log, then, when
/// there is an uploader, to its outbox, with the same bytes.
actor EventWriter {
    private let log: EventLog
    private let uploader: Uploader?
    private(set) var captured: [String: Int] = [:]
    private(set) var failedWrites = 0
    private(set) var lastWriteError: String?
    /// Events taken off the queue, written or not.
    private var processed = 0
    private var waiters = Waiters<Int>()

    init(log: EventLog, uploader: Uploader?) {
        self.log = log
        self.uploader = uploader
    }

    /// Writes the events of `queue` until it finishes.
    func run(_ queue: AsyncStream<SentryEvent>) async {
        for await event in queue { await write(event) }
    }

    /// Waits until `count` events were taken off the queue, or `timeout` passed; returns whether they were.
    func waitUntilProcessed(_ count: Int, timeout: Duration) async -> Bool {
        if processed < count {
            let id = UUID()
            await withCheckedContinuation { continuation in
                let timeoutTask = Task { [weak self] in
                    try? await Task.sleep(for: timeout)
                    await self?.timeOutWaiter(id)
                }
                waiters.add(id, target: count, continuation: continuation, timeout: timeoutTask)
            }
        }
        return processed >= count
    }

    /// Closes the local log; later events are counted as failed writes.
    func close() async {
        do {
            try await log.close()
        } catch {
            lastWriteError = String(describing: error)
        }
    }

    private func write(_ event: SentryEvent) async {
        defer {
            processed += 1
            waiters.resume { $0 <= processed }
        }
        do {
            let json = try EventEncoder.encode(event)
            try await log.append(json)
            captured[event.tags["error.kind"] ?? "other", default: 0] += 1
            if let uploader {
                await uploader.enqueue(
                    Envelope(eventID: event.eventID, eventJSON: json, dsn: uploader.configuration.dsn))
            }
        } catch {
            failedWrites += 1
            lastWriteError = String(describing: error)
            await uploader?.recordDiscarded(.internalSDKError)
        }
    }

    private func timeOutWaiter(_ id: UUID) {
        waiters.timeOut(id)
    }
}
