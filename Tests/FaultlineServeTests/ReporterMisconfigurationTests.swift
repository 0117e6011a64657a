import Faultline
import FaultlineLogReading
import FaultlineReporting
import FaultlineServe
import FaultlineTriage
import Foundation
import Synchronization
import TestSupport
import Testing

/// An app whose DSN names a key the server does not know is told so, once, and loses nothing: its events wait in the
/// local log and go to the server once the DSN is corrected.
@Suite struct ReporterMisconfigurationTests {
    struct PaymentDeclined: Error {}

    @Test func aDSNWhoseKeyServeRefusesIsSaidOnceAndItsEventsAreSentOnceTheDSNIsCorrected() async throws {
        let serveLogs = try ServeFixture.logDirectory()
        let appLogs = try TemporaryDirectory("app").url
        defer {
            try? FileManager.default.removeItem(at: serveLogs)
            try? FileManager.default.removeItem(at: appLogs)
        }
        try await ServeFixture.run(logs: serveLogs) { serve in
            // Given an app whose DSN has a key serve does not take
            let said = Mutex<[Diagnostic]>([])
            let wrong = try DSN(serve.dsn.replacingOccurrences(of: ServeFixture.publicKey, with: "feedface"))
            let say: @Sendable (Diagnostic) -> Void = { diagnostic in said.withLock { $0.append(diagnostic) } }
            let reporter = try Reporter(options: Self.options(appLogs, dsn: wrong, diagnostics: say))

            // When it captures three errors, and the uploader tries them again and again
            var ids: [String] = []
            for _ in 1...3 { ids.append(try #require(await reporter.capture(error: PaymentDeclined()))) }
            let uploader = try #require(reporter.uploader)
            try await wait(for: "three refusals and retries", progressing: { await uploader.statistics.retried }) {
                await uploader.statistics.retried >= 6
            }

            // Then it said once, as an error, that the server refuses the DSN, with the server's reason
            let refusals = said.withLock { $0 }.filter { $0.message.contains("refuses the DSN") }
            #expect(refusals.count == 1, "\(said.withLock { $0 })")
            let refusal = try #require(refusals.first)
            #expect(refusal.level == .error)
            #expect(refusal.message.contains("(403: unknown sentry_key)"), "\(refusal)")
            #expect(refusal.message.contains("kept and sent once the DSN is corrected"), "\(refusal)")
            // and dropped nothing
            #expect(await uploader.statistics.discarded.isEmpty)
            #expect(await reporter.close(timeout: .milliseconds(200)) == false)

            // When the app starts again with the right DSN
            let corrected = try Reporter(options: Self.options(appLogs, dsn: try DSN(serve.dsn), diagnostics: say))

            // Then the events the server refused reach it
            #expect(await corrected.close(timeout: patience))
            let scan = await LogScan(files: try LogFile.all(in: serveLogs), filter: EventFilter())
            #expect(scan.events == 3)
            let stored = try String(contentsOf: serveLogs.appendingPathComponent("events.jsonl"), encoding: .utf8)
            #expect(ids.allSatisfy { stored.contains($0) })
        }
    }

    /// A reporter's options for `logs` and `dsn`, sending each event at once and retrying within 50 ms, its diagnostics
    /// to `diagnostics`.
    static func options(_ logs: URL, dsn: DSN, diagnostics: @escaping @Sendable (Diagnostic) -> Void)
        -> Reporter.Options
    {
        var options = Reporter.Options(logDirectory: logs, environmentVariables: [:])
        options.dsn = dsn
        options.diagnosticHandler = diagnostics
        options.configureDelivery = {
            $0.batchSize = 1
            $0.backoff = Backoff(initial: .milliseconds(20), multiplier: 1, maximum: .milliseconds(50), jitter: 0)
        }
        return options
    }
}
