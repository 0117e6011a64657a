import FaultlineReporting
import FaultlineTriage
import Foundation

/// Where accepted events go: the local log, in the format the SDK writes, so that every `faultline` command reads
/// what `serve` received. An event id already stored is stored once; the ids of the active log are read at start,
/// so a client that retries after a restart makes no duplicate. It keeps the ingest's metrics and rate limit.
actor IngestStore {
    /// How many recent event ids are remembered for de-duplication.
    static let rememberedIDs = 100_000

    private let log: EventLog
    private var seen: Set<String> = []
    private var seenOrder: [String] = []
    private var oldest = 0
    private var metrics = IngestMetrics()
    private var rateLimit: RateLimit?

    init(logDirectory: URL, eventsPerMinute: Int?) throws {
        let configuration = EventLog.Configuration(directory: logDirectory)
        log = try EventLog(configuration: configuration)
        var reader = LogReader()
        let active = LogFile(url: logDirectory.appendingPathComponent(configuration.fileName), kind: .log)
        var ids: [String] = []
        reader.read(active) { ids.append($0.eventID) }
        seenOrder = Array(Set(ids.suffix(Self.rememberedIDs)))
        seen = Set(seenOrder)
        rateLimit = eventsPerMinute.map(RateLimit.init)
    }

    /// Admits `events` under the rate limit, or returns how long the client must wait.
    func admit(_ events: Int) -> Duration? {
        let wait = rateLimit?.admit(events, at: .now)
        if wait != nil { metrics.countDropped("ratelimited", count: events) }
        return wait
    }

    /// Appends each event whose id is new to the log and counts it; returns how many were stored.
    func store(_ events: [(id: String, line: Data)]) async throws -> Int {
        var stored = 0
        for event in events {
            guard !seen.contains(event.id) else {
                metrics.countDropped("duplicate")
                continue
            }
            try await log.append(event.line)
            remember(event.id)
            stored += 1
            let record = [UInt8](event.line).withUnsafeBufferPointer { try? EventRecord(line: $0) }
            if let record { metrics.countReceived(record) }
        }
        return stored
    }

    /// Counts what a client report says was dropped.
    func countDiscards(_ discards: [IngestRequest.Discard: Int]) {
        for (discard, count) in discards {
            metrics.countClientDiscards(reason: discard.reason, category: discard.category, count: count)
        }
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
    }

    /// The metrics in the Prometheus text format.
    func exposition() -> String {
        metrics.exposition()
    }

    /// Closes the log, writing what is buffered.
    func close() async throws {
        try await log.close()
    }

    private func remember(_ id: String) {
        guard seen.insert(id).inserted else { return }
        if seenOrder.count < Self.rememberedIDs {
            seenOrder.append(id)
        } else {
            seen.remove(seenOrder[oldest])
            seenOrder[oldest] = id
            oldest = (oldest + 1) % Self.rememberedIDs
        }
    }
}
