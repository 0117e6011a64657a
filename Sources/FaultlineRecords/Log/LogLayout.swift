import Foundation

/// The layout of a log directory, in one place for the reporter and `faultline serve` that write one and the CLI that
/// reads it:
///
/// ```
/// <log directory>/
///   events.jsonl                                  the active log (EventLog)
///   events-20261122T104134.123Z-000042.jsonl.gz   its rotated files (Rotation)
///   outbox/                                       the uploader's cursor and statistics, and envelopes (*.envelope)
///   requests/outcomes.jsonl                       request outcomes, one line per interval, rotated the same way
///   requests/transactions.jsonl                   transactions with their spans, one per line, rotated the same way
///   forward/<upstream>/                           `faultline serve --forward`'s queues, one per upstream
///   serve.key                                     `faultline serve`'s key
/// ```
package struct LogLayout: Hashable, Sendable {
    /// The name of the log's files without extension: `events.jsonl`, `events-….jsonl.gz`.
    package static let logName = "events"
    /// The extension of a plain log, one event per line.
    package static let logSuffix = ".jsonl"
    /// The extension of a rotated log, gzip-compressed.
    package static let rotatedLogSuffix = ".jsonl.gz"
    /// The extension of an envelope in the outbox.
    package static let envelopeSuffix = ".envelope"
    /// The folder of the uploader's outbox.
    package static let outboxName = "outbox"
    /// The folder of the request logs: outcomes and transactions.
    package static let requestsName = "requests"
    /// The folder that holds one forward queue per upstream.
    package static let forwardQueuesName = "forward"
    /// The directory the CLI reads and `faultline serve` writes when none is given: `$FAULTLINE_LOG_DIR`, else
    /// `./faultline-logs`.
    package static let environmentVariable = "FAULTLINE_LOG_DIR"
    package static let defaultPath = "faultline-logs"

    /// The directory.
    package let url: URL

    /// The log directory at `url`.
    package init(_ url: URL) {
        self.url = url
    }

    /// The log directory at `path`, else the one ``environmentVariable`` names, else ``defaultPath``.
    package init(path: String?, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.init(URL(fileURLWithPath: path ?? environment[Self.environmentVariable] ?? Self.defaultPath))
    }

    /// The active log, `events.jsonl`.
    package var activeLog: URL { url.appendingPathComponent(Self.logName + Self.logSuffix) }
    /// The uploader's outbox, `outbox/`.
    package var outbox: URL { url.appendingPathComponent(Self.outboxName) }
    /// The folder of the request logs (``RequestLog``), `requests/`.
    package var requests: URL { url.appendingPathComponent(Self.requestsName, isDirectory: true) }
    /// The folder of the forward queues, `forward/`.
    package var forwardQueues: URL { url.appendingPathComponent(Self.forwardQueuesName, isDirectory: true) }
    /// `faultline serve`'s key, `serve.key`.
    package var serveKey: URL { url.appendingPathComponent("serve.key") }

    /// The files of the directory a reader takes events from, each list oldest first: rotated logs (`*.jsonl.gz`,
    /// whose names sort by time), plain logs (`*.jsonl`, the active log among them), and the outbox's envelopes.
    /// Empty lists when a folder is missing or unreadable.
    ///
    /// Wider than ``EventLog/files(in:fileName:)``, which lists one log's own files for its writer and uploader: a
    /// reader takes every log it finds, such as one copied in, or a rotation a crash left uncompressed.
    package func eventFiles() -> (rotatedLogs: [URL], logs: [URL], envelopes: [URL]) {
        let names = Self.names(in: url)
        let outboxNames = Self.names(in: outbox)
        return (
            names.filter { $0.hasSuffix(Self.rotatedLogSuffix) }.map { url.appendingPathComponent($0) },
            names.filter { $0.hasSuffix(Self.logSuffix) }.map { url.appendingPathComponent($0) },
            outboxNames.filter { $0.hasSuffix(Self.envelopeSuffix) && !$0.hasPrefix(".") }.map {
                outbox.appendingPathComponent($0)
            }
        )
    }

    /// The names in `directory`, sorted; none when it is missing or unreadable.
    private static func names(in directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }
}
