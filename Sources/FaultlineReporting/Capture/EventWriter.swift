import FaultlineRecords
import Foundation

/// Writes captured events off the capturing caller's path, in capture order: assembles each and appends it to the
/// local log, through the uploader when there is one, which sends it from there; and transactions, to their own log
/// (``RecordKind/transactions``), which the uploader sends the same way. What it wrote and dropped is counted in the
/// reporter's ``RecordLedger``.
actor EventWriter {
    private let log: EventLog
    private let assembler: EventAssembler
    private let uploader: Uploader?
    /// Where transactions go; `nil` when traces are not recorded.
    private let transactionLog: RequestLog?
    private let ledger: RecordLedger
    /// Captures taken off the queue, written or not.
    private var processed = 0
    private var waiters = Waiters<Int>()

    init(
        log: EventLog, assembler: EventAssembler, uploader: Uploader?, transactionLog: RequestLog?,
        ledger: RecordLedger
    ) {
        self.log = log
        self.transactionLog = transactionLog
        self.assembler = assembler
        self.uploader = uploader
        self.ledger = ledger
    }

    /// Writes the captures of `queue` until it finishes.
    func run(_ queue: AsyncStream<PendingCapture>) async {
        for await capture in queue { await write(capture) }
    }

    /// Waits until `count` captures were taken off the queue, or `timeout` passed; returns whether they were.
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

    /// Closes the local log and the transactions' log; later events are counted as failed writes.
    func close() async {
        do {
            try await log.close()
            try await transactionLog?.close()
        } catch {
            let description = String(describing: error)
            ledger.record { $0.lastWriteError = description }
        }
    }

    private func write(_ capture: PendingCapture) async {
        defer {
            processed += 1
            waiters.resume { $0 <= processed }
        }
        if case .transaction(let transaction) = capture.source {
            await write(transaction, of: capture)
            return
        }
        guard let event = assembler.event(for: capture) else {
            ledger.discard(.beforeSend)
            return
        }
        do {
            let json = EventEncoder.encode(event, scope: capture.scope)
            if let uploader {
                try await uploader.append(json, to: .events, eventID: event.eventID)
            } else {
                _ = try await log.appendLine(json)
            }
            let kind = event.tags["error.kind"] ?? "other"
            ledger.record { $0.captured[kind, default: 0] += 1 }
        } catch {
            ledger.discard(.internalSDKError, writeError: String(describing: error))
        }
    }

    /// Appends a transaction to its log, from which the uploader sends it in an envelope whose `trace` header is its
    /// trace's dynamic sampling context.
    private func write(_ transaction: PendingTransaction, of capture: PendingCapture) async {
        guard let transactionLog else { return }
        guard let json = assembler.json(of: transaction, in: capture) else {
            ledger.discard(.beforeSend, .transaction, spans: transaction.spans.count + 1)
            return
        }
        do {
            try await transactionLog.write(
                json, eventID: capture.eventID, trace: transaction.root.context.samplingContext.json)
            ledger.record { $0.transactions += 1 }
        } catch {
            ledger.discard(
                .internalSDKError, .transaction, spans: transaction.spans.count + 1,
                writeError: String(describing: error))
        }
    }

    private func timeOutWaiter(_ id: UUID) {
        waiters.timeOut(id)
    }
}
