import FaultlineRecords
import Foundation

/// Where a reporter or `faultline serve` keeps what it records of requests beside events: request outcomes and
/// transactions (``RecordKind/outcomes``, ``RecordKind/transactions``), each in a log of its own in the log
/// directory's `requests/` folder, rotated, compressed and aged like the event log, so that the event log stays one
/// Sentry event per line. A reporter's uploader delivers each log from its own cursor, as it delivers the event log:
/// every record is written once, and read back from its log when it is sent.
package struct RequestLog: Sendable {
    package let kind: RecordKind
    private let log: EventLog
    private let uploader: Uploader?

    /// Opens the log of `kind` in `layout`'s ``LogLayout/requests`` folder, creating it when missing, for a writer that
    /// does not send it (`faultline serve`).
    package init(
        _ kind: RecordKind, in layout: LogLayout, compressionLevel: Int32 = 6, maximumAge: Duration?,
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws(EventLogError) {
        precondition(kind != .events, "events are written to the event log")
        let configuration = kind.logConfiguration(
            in: layout, compressionLevel: compressionLevel, maximumAge: maximumAge)
        self.init(kind, log: try EventLog(configuration: configuration, now: now), uploader: nil)
    }

    /// The log of `kind` that `log` writes, delivered by `uploader` when there is one: an uploader opened over `log`.
    init(_ kind: RecordKind, log: EventLog, uploader: Uploader?) {
        self.kind = kind
        self.log = log
        self.uploader = uploader
    }

    /// The file lines are appended to.
    package var activeFile: URL { log.configuration.activeFile }

    /// Appends `line` to the log; with an uploader, through it, which sends the line from there in an envelope that
    /// names `eventID` and carries `trace`, the trace's dynamic sampling context, in its header.
    package func write(_ line: Data, eventID: String? = nil, trace: JSONValue? = nil) async throws(EventLogError) {
        if let uploader {
            try await uploader.append(line, to: kind, eventID: eventID, trace: trace)
        } else {
            _ = try await log.appendLine(line)
        }
    }

    /// Removes the files past the maximum age.
    package func expire() async throws(EventLogError) {
        _ = try await log.expire()
    }

    package func close() async throws(EventLogError) {
        try await log.close()
    }
}
