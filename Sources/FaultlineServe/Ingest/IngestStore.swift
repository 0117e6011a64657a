import FaultlineReporting
import FaultlineTriage
import Foundation

/// Where accepted events go: the local log, in the format the SDK writes, so that every `faultline` command reads
/// what `serve` received. An event id already stored is stored once; the ids of the active log are read at start,
/// so a client that retries after a restart makes no duplicate.
actor IngestStore {
    /// What the ingest has done since it started.
    struct Counts: Hashable, Sendable {
        var events = 0
        var duplicates = 0
        /// Events clients reported as dropped (`client_report` items), by reason and category.
        var clientDiscards: [String: Int] = [:]
    }

    /// How many recent event ids are remembered for de-duplication.
    static let rememberedIDs = 100_000

    private let log: EventLog
    private var seen: Set<String> = []
    private var seenOrder: [String] = []
    private var oldest = 0
    private(set) var counts = Counts()

    init(logDirectory: URL) throws {
        let configuration = EventLog.Configuration(directory: logDirectory)
        log = try EventLog(configuration: configuration)
        var reader = LogReader()
        let active = LogFile(url: logDirectory.appendingPathComponent(configuration.fileName), kind: .log)
        var ids: [String] = []
        reader.read(active) { ids.append($0.eventID) }
        seenOrder = Array(Set(ids.suffix(Self.rememberedIDs)))
        seen = Set(seenOrder)
    }

    /// Appends each event whose id is new to the log; returns how many were stored.
    func store(_ events: [(id: String, line: Data)]) async throws -> Int {
        var stored = 0
        for event in events {
            guard !seen.contains(event.id) else {
                counts.duplicates += 1
                continue
            }
            try await log.append(event.line)
            remember(event.id)
            stored += 1
        }
        counts.events += stored
        return stored
    }

    /// Adds what a client report says was dropped.
    func countDiscards(_ discards: [String: Int]) {
        counts.clientDiscards.merge(discards, uniquingKeysWith: +)
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
