import FaultlineLogReading
import FaultlineRecords
import FaultlineReporting
import FaultlineTriage
import Foundation
import TestSupport
import Testing

/// `faultline stats` reads an app's delivery from the statistics its uploader stores beside the outbox.
@Suite struct StatsReportTests {
    @Test func dropsNoClientReportCarriedYetAreNamedApartFromThoseReported() async throws {
        let logs = try TemporaryDirectory()
        defer { logs.remove() }
        // Given an app's statistics: 3 events refused as send_error, of which a client report carried 1
        let outbox = LogLayout(logs.url).outbox
        try FileManager.default.createDirectory(at: outbox, withIntermediateDirectories: true)
        var statistics = DeliveryStatistics()
        statistics.discarded = [.init(reason: .sendError, category: .error, quantity: 3)]
        statistics.reported = [.init(reason: .sendError, category: .error, quantity: 1)]
        try statistics.storeFile(in: outbox, at: Date())

        // When stats reads the log directory
        let scan = await LogScan(files: try LogFile.all(in: logs.url), filter: EventFilter())
        let text = StatsReport(scan, logDirectory: logs.url).text(style: TextStyle(colors: false))

        // Then it lists the 3 dropped, and the 2 no report carried yet
        #expect(text.contains("dropped:\n  send_error (error): 3\n"), "\(text)")
        #expect(
            text.contains("not yet in a client report (sent with the next envelope): send_error/error 2"), "\(text)")
    }
}
