import FaultlineLogReading
import FaultlineRecords
import FaultlineReporting
import Foundation

/// `faultline stats`: the state of the pipeline on this device: what waits to be sent in the log and the outbox,
/// what was delivered, retried and dropped (by reason), the same for each upstream `faultline serve --forward` sends
/// to with what `serve` received and refused, and what the logs held that could not be read.
package struct StatsReport: Hashable, Sendable, Encodable {
    /// The envelopes waiting in the outbox.
    package struct Outbox: Hashable, Sendable, Codable {
        package let envelopes: Int
        package let bytes: Int
        /// When the oldest envelope waiting was stored; `nil` when none waits, or only envelopes an earlier version
        /// stored, without the time.
        package let oldestWaiting: Date?

        enum CodingKeys: String, CodingKey {
            case envelopes, bytes
            case oldestWaiting = "oldest_waiting"
        }
    }

    /// A reporter's records that wait in its logs to be sent: events, transactions, and intervals of request outcomes.
    package struct LogBacklog: Hashable, Sendable, Codable {
        package let events: Int
        package let transactions: Int
        package let requestOutcomes: Int
        /// Their bytes, in all.
        package let bytes: Int

        enum CodingKeys: String, CodingKey {
            case events, transactions, bytes
            case requestOutcomes = "request_outcomes"
        }

        /// What waits in the logs of `layout` for the uploaders whose cursors its outbox holds.
        init(waitingIn layout: LogLayout) {
            let waitingEvents = DeliveryBacklog.inLog(.events, of: layout)
            let waitingTransactions = DeliveryBacklog.inLog(.transactions, of: layout)
            let waitingOutcomes = DeliveryBacklog.inLog(.outcomes, of: layout)
            events = waitingEvents.records
            transactions = waitingTransactions.records
            requestOutcomes = waitingOutcomes.records
            bytes = waitingEvents.bytes + waitingTransactions.bytes + waitingOutcomes.bytes
        }

        /// What waits, as `stats` says it: `3 events`, and the transactions and request outcomes when some wait.
        var text: String {
            var parts = [counted(events, "event")]
            if transactions > 0 { parts.append(counted(transactions, "transaction")) }
            if requestOutcomes > 0 { parts.append(counted(requestOutcomes, "interval") + " of request outcomes") }
            return parts.count == 1 ? parts[0] : parts.dropLast().joined(separator: ", ") + " and " + parts.last!
        }
    }

    /// `null` when files were named instead of a log directory, or for the directory of a relay (`serve --forward`
    /// with forward queues and no app's outbox).
    package let outbox: Outbox?
    /// `null` as ``outbox`` is.
    package let log: LogBacklog?
    /// The uploader's cumulative counts (`outbox/delivery-stats.json`); zeros when it never ran; `null` as ``outbox``
    /// is.
    package let delivery: DeliveryStatistics?
    /// The queues of `faultline serve --forward` in the log directory, one per upstream; in the JSON only when
    /// there are some.
    package let forward: [ForwardQueue]
    /// What `faultline serve` received and refused, when it ran on the log directory; in the JSON only then.
    package let ingest: IngestStatistics?
    package let read: ReadCounts
    /// When the report was made: what the ages of the text count from.
    let now: Date

    enum CodingKeys: String, CodingKey {
        case outbox, log, delivery, forward, ingest, read
    }

    /// The stats of `scan` at `now`, with the outbox of `logDirectory` when the logs came from one.
    package init(_ scan: LogScan, logDirectory: URL?, now: Date = Date()) {
        read = scan.counts
        self.now = now
        guard let logDirectory else {
            outbox = nil
            log = nil
            delivery = nil
            forward = []
            ingest = nil
            return
        }
        forward = ForwardQueue.all(in: logDirectory)
        let ingestFile = logDirectory.appendingPathComponent(IngestStatistics.fileName, isDirectory: false)
        ingest =
            FileManager.default.fileExists(atPath: ingestFile.path) ? IngestStatistics.stored(in: logDirectory) : nil
        let directory = LogLayout(logDirectory).outbox
        guard (forward.isEmpty && ingest == nil) || FileManager.default.fileExists(atPath: directory.path) else {
            // serve's directory, relaying or not: no app sends from it, so there is nothing app-side to show.
            (outbox, log, delivery) = (nil, nil, nil)
            return
        }
        let waiting = DeliveryBacklog.inOutbox(directory)
        outbox = Outbox(envelopes: waiting.envelopes, bytes: waiting.bytes, oldestWaiting: waiting.oldest)
        log = LogBacklog(waitingIn: LogLayout(logDirectory))
        delivery = DeliveryStatistics.stored(in: directory)
    }

    package func encode(to encoder: any Encoder) throws {
        try JSONSchemaVersion.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(outbox, forKey: .outbox)
        try container.encode(log, forKey: .log)
        try container.encode(delivery, forKey: .delivery)
        if !forward.isEmpty { try container.encode(forward, forKey: .forward) }
        if let ingest { try container.encode(ingest, forKey: .ingest) }
        try container.encode(read, forKey: .read)
    }

    /// The stats as the terminal shows them.
    package func text(style: TextStyle) -> String {
        var lines: [String] = []
        if let outbox, let log, let delivery {
            lines.append(style.bold("log: \(log.text) waiting to be sent, \(log.bytes) bytes"))
            lines.append(
                style.bold(
                    "outbox: \(counted(outbox.envelopes, "envelope")) waiting, \(outbox.bytes) bytes"
                        + oldest(outbox.oldestWaiting, "stored")))
            lines += Self.text(delivery, delivered: "delivered")
        } else if forward.isEmpty && ingest == nil {
            lines.append("outbox: not read (files were named instead of a log directory)")
        }
        if let ingest { lines += Self.text(ingest, style: style) }
        for queue in forward {
            lines.append(
                style.bold(
                    "forward queue \(queue.upstream): \(counted(queue.envelopes, "envelope")) waiting, \(queue.bytes) bytes"
                        + oldest(queue.oldestWaiting, "received")))
            lines += Self.text(queue.delivery, delivered: "forwarded")
        }
        return lines.joined(separator: "\n") + "\n" + ReadCounts.text(read, style: style)
    }

    /// The age of the oldest envelope waiting, which was `stored` at `date`, after a queue's counts; nothing when it is
    /// not known.
    private func oldest(_ date: Date?, _ stored: String) -> String {
        guard let date else { return "" }
        let time = RFC3339.string(from: date, precision: .seconds)
        return ", the oldest \(stored) \(ElapsedTime.text(seconds: now.timeIntervalSince(date))) ago (\(time))"
    }

    /// What `serve` received and refused, in lines: the requests answered by status, the events stored, and those not
    /// stored by reason.
    private static func text(_ ingest: IngestStatistics, style: TextStyle) -> [String] {
        let answered = ingest.requests.values.reduce(0, +)
        let statuses = ingest.requests.sorted { (Int($0.key) ?? 0) < (Int($1.key) ?? 0) }
            .map { "\($0.key): \($0.value)" }.joined(separator: ", ")
        let updated = ingest.updated.map { RFC3339.string(from: $0, precision: .seconds) } ?? "never"
        var lines = [
            style.bold(
                "serve: \(counted(answered, "request")) answered\(statuses.isEmpty ? "" : " (\(statuses))"), "
                    + "\(counted(ingest.stored, "event")) stored (updated \(updated))")
        ]
        lines.append(
            ingest.dropped.isEmpty
                ? "not stored: none"
                : "not stored: "
                    + ingest.dropped.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        if !ingest.storedItems.isEmpty {
            lines.append("other items stored: " + listed(ingest.storedItems))
        }
        if !ingest.droppedItems.isEmpty {
            let notKept =
                ingest.droppedItems.keys.contains { $0.hasPrefix("not_kept/") }
                ? " (not_kept: a type the local log does not keep, and no forward route took it)" : ""
            lines.append("other items not stored: " + listed(ingest.droppedItems) + notKept)
        }
        if ingest.logFilesEvicted > 0 || ingest.logFilesExpired > 0 {
            lines.append(
                "log files removed: \(ingest.logFilesEvicted) by size (--max-log-bytes), \(ingest.logFilesExpired) by age "
                    + "(--max-age)")
        }
        if !ingest.droppedBySDKs.isEmpty {
            lines.append(
                "dropped by the SDKs (their client reports): "
                    + ingest.droppedBySDKs.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
                    .joined(separator: ", "))
        }
        return lines
    }

    /// Counts by name, sorted by name: `duplicate/transaction 1, not_kept/session 4`.
    private static func listed(_ counts: [String: Int]) -> String {
        counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }

    /// What an uploader did, in lines: sent (`delivered` or `forwarded`), retried, the last failure and whether sends
    /// succeeded since, dropped by reason and category. (What waits is the queue's line above it, counted now; the
    /// count the uploader wrote at its last update is in the JSON.)
    private static func text(_ delivery: DeliveryStatistics, delivered: String) -> [String] {
        let updated = delivery.updated.map { RFC3339.string(from: $0, precision: .seconds) } ?? "never"
        var lines = ["\(delivered) \(delivery.delivered), retried \(delivery.retried) (updated \(updated))"]
        if let failure = delivery.lastFailure {
            let answer = failure.status.map { "\($0)" + (failure.reason.map { " \($0)" } ?? "") } ?? "no response"
            let date = RFC3339.string(from: failure.date, precision: .seconds)
            var note = failure.refusedTheDSN ? " (the endpoint refused the DSN: its key or project)" : ""
            if let recovered = delivery.lastDelivery, recovered > failure.date {
                note +=
                    "; recovered: \(delivered) since, the last at \(RFC3339.string(from: recovered, precision: .seconds))"
            }
            lines.append("last failure: \(TerminalText.safe(answer)) at \(date)\(note)")
        }
        if !delivery.expired.isEmpty {
            let expired = delivery.expired.map { "\($0.category.rawValue) \($0.quantity)" }.joined(separator: ", ")
            lines.append("dropped by age (reported as cache_overflow): \(expired)")
        }
        if delivery.discarded.isEmpty {
            lines.append("dropped: none")
        } else {
            lines.append("dropped:")
            for drop in delivery.discarded {
                lines.append("  \(drop.reason.rawValue) (\(drop.category.rawValue)): \(drop.quantity)")
            }
        }
        let unreported = delivery.unreported.discardedEvents
        if !unreported.isEmpty {
            lines.append(
                "not yet in a client report (sent with the next envelope): "
                    + unreported.map { "\($0.reason.rawValue)/\($0.category.rawValue) \($0.quantity)" }
                    .joined(separator: ", "))
        }
        return lines
    }
}
