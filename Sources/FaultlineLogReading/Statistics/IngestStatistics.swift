import FaultlineRecords
import Foundation

/// What `faultline serve` received and refused, across its runs: kept in its log directory as `ingest-stats.json`,
/// so that `faultline stats` shows it after a restart, beside the forward queues. `/metrics` counts the same for the
/// running process only. Every item of a request serve answered 200 is counted once: stored, or not stored with the
/// reason; a request serve refused is counted by the reason its status gives.
package struct IngestStatistics: Hashable, Sendable, Codable, StatisticsFile {
    /// The file's name in the log directory.
    package static let fileName = "ingest-stats.json"

    /// When the statistics were last written.
    package var updated: Date?
    /// Ingest requests answered, by HTTP status (`"200"`, `"401"`, `"429"`).
    package var requests: [String: Int] = [:]
    /// Events accepted and stored (in the local log, or without one in the forward queue).
    package var stored = 0
    /// Events not stored, by reason: `duplicate`, `malformed`, `unauthorized`, `too_large`, `ratelimited`,
    /// `client_closed`, `unavailable` (a refused request counts at least one).
    package var dropped: [String: Int] = [:]
    /// The items other than events stored, by item type (a type Sentry's protocol does not name as `other`): transactions and request
    /// outcomes in their logs (or, without a local log, the forward queue), the types the log does not keep
    /// (`session`, `attachment`) in a forward queue.
    package var storedItems: [String: Int] = [:]
    /// The items other than events not stored, by `reason/type`: `duplicate`, `unreadable`, `not_kept` (a type the
    /// local log does not keep, that no forward route took) and `not_forwarded` (the forward queue refused it), such as
    /// `duplicate/transaction` or `not_kept/session`.
    package var droppedItems: [String: Int] = [:]
    /// What the SDKs said in their client reports they did not send, by `reason/category`, such as
    /// `ratelimit_backoff/error` for the events an SDK dropped while serve's 429 held.
    package var droppedBySDKs: [String: Int] = [:]
    /// The local log's rotated files deleted to keep it within its size cap (`--max-log-bytes`).
    package var logFilesEvicted = 0
    /// The local log's rotated files removed past its maximum age (`--max-age`).
    package var logFilesExpired = 0

    package init() {}

    private enum CodingKeys: String, CodingKey {
        case updated, requests, stored, dropped
        case storedItems = "stored_items"
        case droppedItems = "dropped_items"
        case droppedBySDKs = "dropped_by_sdks"
        case logFilesEvicted = "log_files_evicted"
        case logFilesExpired = "log_files_expired"
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        updated = try container.decodeIfPresent(Date.self, forKey: .updated)
        requests = try container.decodeIfPresent([String: Int].self, forKey: .requests) ?? [:]
        stored = try container.decodeIfPresent(Int.self, forKey: .stored) ?? 0
        dropped = try container.decodeIfPresent([String: Int].self, forKey: .dropped) ?? [:]
        storedItems = try container.decodeIfPresent([String: Int].self, forKey: .storedItems) ?? [:]
        droppedItems = try container.decodeIfPresent([String: Int].self, forKey: .droppedItems) ?? [:]
        droppedBySDKs = try container.decodeIfPresent([String: Int].self, forKey: .droppedBySDKs) ?? [:]
        logFilesEvicted = try container.decodeIfPresent(Int.self, forKey: .logFilesEvicted) ?? 0
        logFilesExpired = try container.decodeIfPresent(Int.self, forKey: .logFilesExpired) ?? 0
    }

    /// Reads the statistics stored in `directory`; empty ones when there are none or they cannot be read.
    package static func stored(in directory: URL) -> IngestStatistics { storedFile(in: directory) }

    /// Writes the statistics to `directory` as of `date`, replacing the file atomically.
    package func store(in directory: URL, at date: Date) throws { try storeFile(in: directory, at: date) }
}
