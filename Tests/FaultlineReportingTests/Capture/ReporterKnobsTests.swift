import Faultline
import FaultlineRecords
import FaultlineReporting
import FaultlineTestServer
import Foundation
import SeedScenarios
import Synchronization
import TestSupport
import Testing

/// What Sentry users reach for first: the DSN, release and environment from `SENTRY_*` variables, `beforeBreadcrumb`,
/// and extras and a scope for one capture.
@Suite struct ReporterKnobsTests {
    struct PaymentDeclined: Error {}
    struct SlowAnswer: Decodable, Sendable {
        let ok: Bool
    }

    @Test func sentryEnvironmentVariablesConfigureWhatTheAppDoesNotSet() async throws {
        let log = try LogDirectory()
        defer { log.remove() }
        let recorder = IngestRecorder()
        try await RecordingIngest.run(recorder: recorder) { ingest in
            // Given a deployment that sets SENTRY_DSN, SENTRY_RELEASE and SENTRY_ENVIRONMENT, and an app that sets
            // none of them
            let variables = [
                "SENTRY_DSN": ingest.dsn(), "SENTRY_RELEASE": "shop@3.2.0", "SENTRY_ENVIRONMENT": "staging",
            ]
            let reporter = try Reporter(options: .init(logDirectory: log.url, environmentVariables: variables))

            // When an error is captured and the reporter closes
            let id = try #require(await reporter.capture(error: PaymentDeclined()))
            #expect(await reporter.close(timeout: patience))

            // Then the event went to that DSN, with that release and environment
            let sent = try #require(await recorder.requests.first)
            let body = String(decoding: try Gzip.decompress(sent.body, maximumSize: 1 << 20), as: UTF8.self)
            #expect(body.contains(id))
            let event = try #require(try log.events().first)
            #expect(event.release == "shop@3.2.0")
            #expect(event.environment == "staging")
        }
    }

    @Test func optionsTheAppSetsWinOverTheEnvironmentAndEmptyVariablesAreUnset() throws {
        let log = try LogDirectory()
        defer { log.remove() }
        // Given variables, one of them empty
        let variables = [
            "SENTRY_DSN": "https://key@sentry.example.com/42", "SENTRY_RELEASE": "", "SENTRY_ENVIRONMENT": "staging",
        ]
        var options = Reporter.Options(logDirectory: log.url, environmentVariables: variables)
        #expect(options.dsn?.host == "sentry.example.com")
        #expect(options.release == nil)

        // When the app sets its own values
        options.dsn = nil
        options.environment = "production"

        // Then they win
        #expect(options.dsn == nil)
        #expect(options.environment == "production")
        #expect(Reporter.Options(logDirectory: log.url, environmentVariables: [:]).environment == "production")
    }

    @Test func aSentryDSNThatIsNotADSNIsSaidAndTheReporterKeepsEventsInTheLocalLog() async throws {
        let log = try LogDirectory()
        defer { log.remove() }
        // Given a SENTRY_DSN with no project id, and an app that does not catch errors from the reporter
        var options = Reporter.Options(
            logDirectory: log.url, environmentVariables: ["SENTRY_DSN": "https://key@sentry.example.com/"])
        let said = Mutex<[Diagnostic]>([])
        options.diagnosticHandler = { diagnostic in said.withLock { $0.append(diagnostic) } }

        // When the reporter starts and an error is captured
        let reporter = try Reporter(options: options)
        let id = try #require(await reporter.capture(error: PaymentDeclined()))
        #expect(await reporter.close(timeout: patience))

        // Then it started without a DSN, saying why and where the value came from, once, as an error
        let diagnostics = said.withLock { $0 }
        #expect(diagnostics.count == 1, "\(diagnostics)")
        let error = try #require(diagnostics.first)
        #expect(error.level == .error)
        #expect(error.message.contains("SENTRY_DSN environment variable"), "\(error)")
        #expect(error.message.contains("project id"), "\(error)")
        #expect(error.message.contains("kept in the local log only"), "\(error)")
        #expect(reporter.uploader == nil)
        // and the event is in the local log
        #expect(try log.events().map(\.eventID) == [id])
    }

    @Test func aReporterThatIsNotEnabledOpensCapturesAndSendsNothing() async throws {
        let recorder = IngestRecorder()
        try await RecordingIngest.run(recorder: recorder) { ingest in
            // Given a reporter not enabled, with a DSN and a log directory that does not exist yet
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("disabled-\(UUID())")
            var options = Reporter.Options(logDirectory: directory, environmentVariables: [:])
            options.dsn = try DSN(ingest.dsn())
            options.tracesSampleRate = 1
            options.enabled = false
            let reporter = try Reporter(options: options)

            // When the app captures an error and a message, and makes a request through the capture middleware
            #expect(await reporter.capture(error: PaymentDeclined()) == nil)
            #expect(await reporter.capture(message: "checkout opened") == nil)
            try await SeedServer.run { server in
                let client = APIClient(baseURL: server.baseURL) {
                    $0.middlewares = [CaptureMiddleware(reporter: reporter, baseURL: server.baseURL)]
                }
                await #expect(throws: RequestFailure.self) {
                    try await client.send(
                        APIRequest<SlowAnswer>(.get, "/malformed/{kind}", pathParameters: ["kind": "html"]))
                }
            }

            // Then nothing was written or sent, and the reporter says it did all it had to
            #expect(await reporter.flush(timeout: patience))
            #expect(await reporter.close(timeout: patience))
            #expect(!FileManager.default.fileExists(atPath: directory.path))
            #expect(await recorder.requests.isEmpty)
            let statistics = await reporter.statistics
            #expect(statistics.captured.isEmpty && statistics.droppedBySampleRate == 0 && statistics.transactions == 0)
        }
    }

    @Test func withDebugTheReporterSaysWhereItSendsAndWhatItSentAndWithoutItOnlyErrors() async throws {
        let recorder = IngestRecorder()
        try await RecordingIngest.run(recorder: recorder) { ingest in
            // Given two reporters sending to an ingest, one with debug on
            var said: [Bool: [Diagnostic]] = [:]
            for debug in [true, false] {
                let log = try LogDirectory()
                defer { log.remove() }
                var options = Reporter.Options(logDirectory: log.url, environmentVariables: [:])
                options.dsn = try DSN(ingest.dsn())
                options.debug = debug
                let diagnostics = Mutex<[Diagnostic]>([])
                options.diagnosticHandler = { diagnostic in diagnostics.withLock { $0.append(diagnostic) } }
                options.beforeSend = { $0.message == "dropped" ? nil : $0 }
                let reporter = try Reporter(options: options)

                // When each captures an error, and a message its beforeSend drops
                await reporter.capture(error: PaymentDeclined())
                await reporter.capture(message: "dropped")
                #expect(await reporter.close(timeout: patience))
                said[debug] = diagnostics.withLock { $0 }
            }

            // Then the one with debug said where it writes and sends, what it sent and what it dropped
            let debugged = try #require(said[true]).map(\.message)
            #expect(debugged.contains { $0.contains("sending them to 127.0.0.1 project 1") }, "\(debugged)")
            #expect(debugged.contains { $0.hasPrefix("sent an envelope of error to 127.0.0.1") }, "\(debugged)")
            #expect(debugged.contains("dropped an event: before_send"), "\(debugged)")
            // and the other, with nothing wrong, said nothing
            #expect(said[false] == [])
        }
    }

    @Test func beforeBreadcrumbDropsOrRewritesEveryBreadcrumbAndWhatItReturnsIsScrubbed() async throws {
        let log = try LogDirectory()
        defer { log.remove() }
        try await SeedServer.run { server in
            // Given a beforeBreadcrumb that drops navigation breadcrumbs and adds a note (with a secret) to the others
            var options = Reporter.Options(logDirectory: log.url, environmentVariables: [:])
            options.beforeBreadcrumb = { breadcrumb in
                guard breadcrumb.category != "navigation" else { return nil }
                var changed = breadcrumb
                changed.data = (breadcrumb.data ?? [:]).merging(["note": "seen", "password": "hunter2"]) { $1 }
                return changed
            }
            let reporter = try Reporter(options: options)
            let client = APIClient(baseURL: server.baseURL) {
                $0.middlewares = [CaptureMiddleware(reporter: reporter, baseURL: server.baseURL)]
            }

            // When the app adds breadcrumbs, makes a request (an http breadcrumb) and captures an error
            await reporter.addBreadcrumb(Breadcrumb(category: "navigation", message: "opened checkout"))
            await reporter.addBreadcrumb(Breadcrumb(category: "cart", message: "added an item"))
            let answer = try await client.send(
                APIRequest<SlowAnswer>(.get, "/slow", query: [URLQueryItem(name: "ms", value: "0")]))
            #expect(answer.value.ok)
            await reporter.capture(error: PaymentDeclined())

            // Then the event carries the breadcrumbs it kept, rewritten, with the secret it added filtered
            let event = try #require(try await log.events(writtenBy: reporter).last)
            let breadcrumbs = event.breadcrumbs?.values ?? []
            #expect(breadcrumbs.map(\.category) == ["cart", "http"])
            #expect(breadcrumbs.allSatisfy { $0.data?["note"] == "seen" })
            #expect(breadcrumbs.allSatisfy { $0.data?["password"] == "[Filtered]" })
        }
    }

    @Test func aScopeForOneCaptureChangesThatEventOnly() async throws {
        let log = try LogDirectory()
        defer { log.remove() }
        // Given a reporter whose scope has an extra
        let reporter = try Reporter(options: .init(logDirectory: log.url, environmentVariables: [:]))
        await reporter.configureScope { $0.extras["build"] = "310" }

        // When one error is captured with a scope of its own, and another without
        await reporter.capture(error: PaymentDeclined()) {
            $0.tags["screen"] = "checkout"
            $0.extras["cart_items"] = 3
            $0.extras["build"] = "311-hotfix"
        }
        await reporter.capture(error: PaymentDeclined())

        // Then only the first carries its tag and extras; both carry the scope's extra
        let events = try await log.events(writtenBy: reporter)
        #expect(events.count == 2)
        #expect(events.first?.tags["screen"] == "checkout")
        #expect(events.first?.extra?["cart_items"] == 3)
        #expect(events.first?.extra?["build"] == "311-hotfix")
        #expect(events.last?.tags["screen"] == nil)
        #expect(events.last?.extra == ["build": "310"])
    }
}
