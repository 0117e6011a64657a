import Foundation

/// Where a reporter or `faultline serve` keeps request outcomes: a log of their own, `requests/outcomes.jsonl` in the
/// log directory, rotated, compressed and aged like the event log, so that the event log stays one Sentry event per
/// line; and, with an uploader, sent through its outbox, each line as an envelope item of type ``RequestOutcomes/type``.
package struct RequestOutcomesLog: Sendable {
    /// The name of its files without extension: `outcomes.jsonl`, `outcomes-….jsonl.gz`.
    static let fileName = "outcomes"
    /// Its active file's size at rotation, and its size on disk at most: a line a minute of a busy app's few dozen
    /// routes is a few kilobytes, so it keeps weeks.
    static let maximumFileSize = 1024 * 1024
    static let maximumTotalSize = 8 * 1024 * 1024

    private let log: EventLog
    private let uploader: Uploader?

    /// Opens the log in `layout`'s ``LogLayout/requestOutcomes`` folder, creating it when missing.
    package init(
        _ layout: LogLayout, compressionLevel: Int32 = 6, maximumAge: Duration?, uploader: Uploader? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws(EventLogError) {
        let configuration = EventLog.Configuration(
            directory: layout.requestOutcomes, fileName: Self.fileName, maximumFileSize: Self.maximumFileSize,
            maximumTotalSize: Self.maximumTotalSize, compressionLevel: compressionLevel, maximumAge: maximumAge)
        log = try EventLog(configuration: configuration, now: now)
        self.uploader = uploader
    }

    /// The file lines are appended to.
    package var activeFile: URL { log.configuration.activeFile }

    /// Appends `outcomes` to the log and hands them to the uploader.
    package func write(_ outcomes: RequestOutcomes) async throws(EventLogError) {
        let line = outcomes.line()
        _ = try await log.appendLine(line)
        await uploader?.enqueue(
            Envelope(header: [:], items: [Envelope.Item(type: RequestOutcomes.type, payload: line)]))
    }

    /// Removes the files past the maximum age.
    package func expire() async throws(EventLogError) {
        _ = try await log.expire()
    }

    package func close() async throws(EventLogError) {
        try await log.close()
    }
}
