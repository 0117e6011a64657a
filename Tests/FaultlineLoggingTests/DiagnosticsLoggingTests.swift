#if SwiftLog
    import FaultlineLogging
    import FaultlineReporting
    import Foundation
    import InMemoryLogging
    import Logging
    import TestSupport
    import Testing

    /// A server's reporter says what it does through the app's swift-log bootstrap, each diagnostic at its own level.
    @Suite struct DiagnosticsLoggingTests {
        @Test func aReportersDiagnosticsGoToTheLoggerAtTheirLevels() async throws {
            let temporary = try TemporaryDirectory("diagnostics")
            defer { temporary.remove() }
            // Given a reporter with debug on whose diagnostics go to a logger, and a SENTRY_DSN that is not a DSN
            let handler = InMemoryLogHandler()
            var logger = Logger(label: "faultline") { _ in handler }
            logger.logLevel = .trace
            var options = Reporter.Options(
                logDirectory: temporary.url, environmentVariables: ["SENTRY_DSN": "not a dsn"])
            options.debug = true
            options.sendDiagnostics(to: logger)

            // When it starts
            let reporter = try Reporter(options: options)
            #expect(await reporter.close(timeout: patience))

            // Then the logger has the unreadable DSN as an error, and where the reporter writes as debug
            let entries = handler.entries.map { ($0.level, $0.message.description) }
            #expect(
                entries.contains { $0.0 == .error && $0.1.contains("SENTRY_DSN environment variable") }, "\(entries)")
            #expect(entries.contains { $0.0 == .debug && $0.1.contains(temporary.url.path) }, "\(entries)")
        }
    }
#endif
