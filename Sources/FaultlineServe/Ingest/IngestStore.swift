import FaultlineLogReading
import FaultlineRecords
import FaultlineReporting
import Foundation

/// Where accepted events go: the local log, in the format the SDK writes, so that every `faultline` command reads
/// what `serve` received. An event id already stored is stored once (``StoredRecordIDs``); the ids of the active logs
/// are read at start, so a client that retries after a restart makes no duplicate. Without a local log
/// (`--forward-only`) the ids are only remembered, for the forwarder. It keeps the ingest's metrics and rate limit,
/// and stores what they count in ``IngestStatistics`` in the log directory within a second of a change, and at
/// ``close()``.
///
/// An event is *in flight* from the moment a request claims it until it is kept (appended to the log; without one,
/// queued for the upstream: ``keep(_:)``) or given up (``release(_:)``). A request carrying an event in flight is
/// refused with ``EventInFlight``, to be sent again: answering it "already stored" before the first request knows it
/// kept the event would lose the event when that request fails, as an app killed mid-request and sending again on
/// restart never reads the first answer.
actor IngestStore {
    /// A request carries an event that another request is storing at this moment.
    struct EventInFlight: Error {
        let eventID: String
    }

    /// How many recent event ids are remembered for de-duplication.
    static let rememberedIDs = 100_000

    private let log: EventLog?
    /// Where request outcomes are stored, beside the log; `nil` without a log.
    private let requestOutcomesLog: RequestLog?
    /// Where transactions are stored, beside the log; `nil` without a log.
    private let transactionLog: RequestLog?
    /// The records stored, and those a request is storing.
    private var recordIDs: StoredRecordIDs
    private var metrics: IngestMetrics
    private var rateLimit: RateLimit?
    /// Where the statistics are stored, and the write scheduled since they last changed.
    private let directory: URL
    private var statisticsWrite: Task<Void, Never>?
    /// What the rate limit's minutes and the statistics' writes run on.
    private let clock: ElapsedClock

    /// Opens the log of `configuration`, when it stores locally.
    init(_ configuration: IngestConfiguration) throws {
        rateLimit = configuration.eventsPerMinute.map(RateLimit.init)
        clock = configuration.clock
        directory = configuration.logDirectory
        metrics = IngestMetrics(statistics: IngestStatistics.stored(in: configuration.logDirectory))
        guard configuration.storesLocally else {
            recordIDs = StoredRecordIDs(remembering: [], capacity: Self.rememberedIDs)
            log = nil
            requestOutcomesLog = nil
            transactionLog = nil
            return
        }
        var logConfiguration = EventLog.Configuration(directory: configuration.logDirectory)
        if let maximumLogBytes = configuration.maximumLogBytes { logConfiguration.maximumTotalSize = maximumLogBytes }
        logConfiguration.maximumAge = configuration.maximumAge
        log = try EventLog(configuration: logConfiguration)
        let requestOutcomesLog = try RequestLog(
            .outcomes, in: LogLayout(configuration.logDirectory), maximumAge: configuration.maximumAge)
        self.requestOutcomesLog = requestOutcomesLog
        let transactionLog = try RequestLog(
            .transactions, in: LogLayout(configuration.logDirectory), maximumAge: configuration.maximumAge)
        self.transactionLog = transactionLog
        var reader = LogReader()
        let active = LogFile(url: logConfiguration.activeFile, kind: .log)
        var ids: [String] = []
        reader.readLines(of: LogPiece(active)) { line in
            if let scan = try? EventScan(line: line) { ids.append(scan.record.eventID) }
        }
        reader.readLines(of: LogPiece(LogFile(url: requestOutcomesLog.activeFile, kind: .log))) { line in
            if let outcomes = try? RequestOutcomes(line: line) { ids.append(outcomes.id) }
        }
        reader.readLines(of: LogPiece(LogFile(url: transactionLog.activeFile, kind: .log))) { line in
            let members = try? JSONValue.members(["event_id"], ofObjectParsing: line)
            if let id = members?["event_id"]?.stringValue { ids.append(id) }
        }
        recordIDs = StoredRecordIDs(remembering: ids, capacity: Self.rememberedIDs)
    }

    /// Admits `events` under the rate limit, or returns how long the client must wait.
    func admit(_ events: Int) -> Duration? {
        let wait = rateLimit?.admit(events, at: clock.now)
        if wait != nil {
            metrics.countDropped("ratelimited", count: events)
            statisticsChanged()
        }
        return wait
    }

    /// Appends each event whose id is new to the log and counts it; returns the ids of those stored. Without a log the
    /// events stay in flight until ``keep(_:)`` or ``release(_:)``.
    ///
    /// - Parameter records: What the metrics count of each event, in the order of `events`, as the request read it
    ///   (`IngestRequest/records`); without them, each line stored is read for it.
    ///
    /// - Throws: ``EventInFlight`` when another request is storing one of the events; the log's error when an append
    ///   failed. The events before it in the request are stored (with a log) or given up (without one), so the client
    ///   can send the request again.
    func store(_ events: [(id: String, line: Data)], records: [EventRecord?]? = nil) async throws -> [String] {
        var stored: [String] = []
        for (index, event) in events.enumerated() {
            let claim = stored.contains(event.id) ? .stored : recordIDs.claim(event.id)
            guard claim != .stored else {
                metrics.countDropped("duplicate")
                statisticsChanged()
                continue
            }
            guard claim == .claimed else {
                release(stored)
                throw EventInFlight(eventID: event.id)
            }
            if let log {
                // The append suspends: a request carrying the same event meanwhile finds it in flight.
                do {
                    countRemoved(try await log.appendLine(event.line).removed)
                } catch {
                    recordIDs.settle(event.id, kept: false)
                    throw error
                }
                recordIDs.settle(event.id, kept: true)
            }
            stored.append(event.id)
            let record =
                records.map { $0[index] }
                ?? [UInt8](event.line).withUnsafeBufferPointer { try? EventScan(line: $0).record }
            metrics.countStored(record)
            statisticsChanged()
        }
        return stored
    }

    /// Appends each interval of request outcomes whose id is new to the request outcomes' log, counting it stored and
    /// the others as duplicates; returns how many were stored. Without a log, nothing is stored or counted (they are
    /// forwarded).
    ///
    /// - Throws: The log's error when an append failed; the intervals before it are stored, and known by their ids
    ///   when the client sends them again.
    func store(requestOutcomes: [RequestOutcomes]) async throws -> Int {
        guard let requestOutcomesLog else { return 0 }
        var stored = 0
        for outcomes in requestOutcomes {
            let isNew = try await storeOnce(outcomes.id, outcomes.line(), in: requestOutcomesLog)
            countItems([RequestOutcomes.type: 1], isNew ? .stored : .notStored(.duplicate))
            if isNew {
                metrics.countStored(outcomes)
                stored += 1
            }
        }
        return stored
    }

    /// Appends each transaction whose id is new to the transactions' log, counting it stored and the others as
    /// duplicates; returns how many were stored. Without a log, nothing is stored or counted (they are forwarded).
    ///
    /// - Throws: The log's error when an append failed; the transactions before it are stored, and known by their ids
    ///   when the client sends them again.
    func store(transactions: [(id: String, line: Data)]) async throws -> Int {
        guard let transactionLog else { return 0 }
        var stored = 0
        for transaction in transactions {
            let isNew = try await storeOnce(transaction.id, transaction.line, in: transactionLog)
            countItems(["transaction": 1], isNew ? .stored : .notStored(.duplicate))
            if isNew { stored += 1 }
        }
        return stored
    }

    /// Counts items other than events, by type, that met `fate`.
    func countItems(_ items: [String: Int], _ fate: ItemFate) {
        for (type, count) in items where count > 0 { metrics.countItems(type, fate, count: count) }
        if items.values.contains(where: { $0 > 0 }) { statisticsChanged() }
    }

    /// Appends `line` to `log` unless the id is stored or being stored; returns whether it was appended.
    private func storeOnce(_ id: String, _ line: Data, in log: RequestLog) async throws -> Bool {
        guard recordIDs.claim(id) == .claimed else { return false }
        do {
            try await log.write(line)
        } catch {
            recordIDs.settle(id, kept: false)
            throw error
        }
        recordIDs.settle(id, kept: true)
        return true
    }

    /// Keeps the events `ids` stored without a log, once the forward queue took them: a client that sends them again
    /// is told they are duplicates.
    func keep(_ ids: [String]) {
        guard log == nil else { return }
        for id in ids { recordIDs.settle(id, kept: true) }
    }

    /// Gives up the events `ids` stored without a log, when the forward queue refused them: a client that sends them
    /// again is not told they are duplicates.
    func release(_ ids: [String]) {
        guard log == nil else { return }
        for id in ids { recordIDs.settle(id, kept: false) }
    }

    /// Removes the log's files past the maximum age, when it has one, and counts them; a failure is tried again at
    /// the next call.
    func expire() async {
        _ = try? await requestOutcomesLog?.expire()
        _ = try? await transactionLog?.expire()
        guard let log, let removed = try? await log.expire() else { return }
        countRemoved(removed)
    }

    /// Counts the log's files an append or an expiry removed.
    private func countRemoved(_ removed: EventLog.RemovedSegments) {
        guard !removed.evicted.isEmpty || !removed.expired.isEmpty else { return }
        metrics.countLogFiles(evicted: removed.evicted.count, expired: removed.expired.count)
        statisticsChanged()
    }

    /// Counts what a client report says was dropped.
    func countDiscards(_ discards: [IngestRequest.Discard: Int]) {
        for (discard, count) in discards {
            metrics.countClientDiscards(reason: discard.reason, category: discard.category, count: count)
        }
        if !discards.isEmpty { statisticsChanged() }
    }

    /// Counts an answered request, and the events of a refused one by the reason its status gives.
    func countAnswer(status: Int, refusedEvents: Int = 0) {
        metrics.countRequest(status: status)
        let reason: String? =
            switch status {
            case 400: "malformed"
            case 401, 403, 404: "unauthorized"
            case 413: "too_large"
            case IngestRequest.Refusal.clientClosedRequest: "client_closed"
            case 503: "unavailable"
            default: nil
            }
        if let reason { metrics.countDropped(reason, count: max(1, refusedEvents)) }
        statisticsChanged()
    }

    /// The metrics in the Prometheus text format.
    func exposition() -> String {
        metrics.exposition()
    }

    /// Closes the log, writing what is buffered, and stores the statistics.
    func close() async throws {
        statisticsWrite?.cancel()
        storeStatistics()
        try await requestOutcomesLog?.close()
        try await transactionLog?.close()
        try await log?.close()
    }

    /// Schedules the statistics to be stored in a second, unless a write is scheduled already: one write a second at
    /// most, whatever the request rate.
    private func statisticsChanged() {
        guard statisticsWrite == nil else { return }
        statisticsWrite = Task { [clock] in
            // Cancelled by close, which stores them itself: its write is the last.
            guard (try? await Task.sleep(for: .seconds(1), clock: clock)) != nil else { return }
            storeStatistics()
        }
    }

    /// Stores the statistics; a failure to write them is not the requests' failure, and is tried again at the next
    /// change.
    private func storeStatistics() {
        statisticsWrite = nil
        try? metrics.statistics.store(in: directory, at: Date())
    }
}
