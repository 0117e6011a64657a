#if SwiftLog
    import FaultlineLogReading
    import FaultlineLogging
    import FaultlineReporting
    import Foundation
    import Logging
    import TestSupport
    import Testing

    /// Log records through `BreadcrumbLogHandler` become breadcrumbs of the events a real reporter writes to its log,
    /// and records at the capture level become events.
    @Suite struct BreadcrumbLogHandlerTests {
        struct PaymentDeclined: Error {}

        @Test func recordsBecomeScrubbedBreadcrumbsAndErrorsBecomeEvents() async throws {
            let temporary = try TemporaryDirectory("logging")
            defer { temporary.remove() }
            let logs = temporary.url
            let reporter = try Reporter(options: Reporter.Options(logDirectory: logs))
            let recorder = LogRecorder(reporter: reporter)
            var handler = BreadcrumbLogHandler(
                label: "app.checkout", recorder: recorder, captureLevel: .error,
                metadataProvider: .init { ["region": "eu"] })
            handler[metadataKey: "build"] = "412"
            let logger = Logger(label: "app.checkout") { _ in handler }
            let network = Logger(label: "app.network") { recorder.handler(label: $0) }

            // When the app logs below, at and above the levels
            logger.debug("not recorded: below info")
            logger.info("cart loaded", metadata: ["items": "3", "session_token": "abc123secret"])
            network.info("request sent")
            logger.warning("slow response", metadata: ["route": .dictionary(["template": "/v1/cart"])])
            logger.error("checkout failed", metadata: ["code": "E05"])
            handler.log(
                event: LogEvent(
                    level: .critical, message: "payment declined", error: PaymentDeclined(), metadata: nil,
                    source: "checkout", file: #fileID, function: #function, line: #line))
            try await Self.waitUntilCaptured(2, by: reporter)
            #expect(await reporter.close(timeout: patience))

            // Then the error record is an event with the breadcrumbs logged before it, scrubbed
            let events = try String(contentsOf: logs.appendingPathComponent("events.jsonl"), encoding: .utf8)
                .split(separator: "\n").map { try SentryEvent(line: Data($0.utf8)) }
            try #require(events.count == 2)
            let failed = events[0]
            #expect(failed.message == "checkout failed")
            #expect(failed.level == .error)
            let crumbs = failed.breadcrumbs?.values ?? []
            // (in the order logged, across loggers, each under its logger's label)
            #expect(crumbs.map(\.message) == ["cart loaded", "request sent", "slow response"])
            #expect(crumbs.map(\.level) == [.info, .info, .warning])
            #expect(crumbs.map(\.category) == ["app.checkout", "app.network", "app.checkout"])
            #expect(crumbs[0].data?["items"] == .string("3"))
            #expect(crumbs[0].data?["session_token"] == .string("[Filtered]"))
            #expect(crumbs[0].data?["build"] == .string("412") && crumbs[0].data?["region"] == .string("eu"))
            #expect(crumbs[2].data?["route"] == .object(["template": .string("/v1/cart")]))
            let line = try String(contentsOf: logs.appendingPathComponent("events.jsonl"), encoding: .utf8)
            #expect(!line.contains("abc123secret"))

            // And the record with an error is captured as that error, after the error record's breadcrumb
            let declined = events[1]
            #expect(declined.exception?.values.first?.type.hasSuffix("PaymentDeclined") == true)
            #expect(declined.breadcrumbs?.values.last?.message == "checkout failed")
            #expect(declined.breadcrumbs?.values.last?.level == .error)
        }

        @Test func secretsInsideLogMessagesAndMetadataValuesAreFilteredBeforeTheyAreWritten() async throws {
            let temporary = try TemporaryDirectory("logging")
            defer { temporary.remove() }
            let logs = temporary.url
            let reporter = try Reporter(options: Reporter.Options(logDirectory: logs))
            let recorder = LogRecorder(reporter: reporter)
            let logger = Logger(label: "app.auth") { recorder.handler(label: $0, captureLevel: .error) }
            let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJraW0ifQ.bG9nZ2VkLXNpZ25hdHVyZQ"

            // When the app logs texts that carry secrets, under keys that do not say so
            logger.info(
                "refreshing with refresh_token=rt7f3k9q2m", metadata: ["upstream": "https://svc:pw7x2k9@auth.internal"])
            logger.warning("login rejected", metadata: ["reason": "invalid token \(jwt)"])
            logger.error("rejected Bearer \(jwt) for kim")
            try await Self.waitUntilCaptured(1, by: reporter)
            #expect(await reporter.close(timeout: patience))

            // Then the secrets are filtered and the words around them kept
            let file = try String(contentsOf: logs.appendingPathComponent("events.jsonl"), encoding: .utf8)
            for secret in ["rt7f3k9q2m", "pw7x2k9", jwt, "bG9nZ2VkLXNpZ25hdHVyZQ"] {
                #expect(!file.contains(secret))
            }
            let event = try SentryEvent(line: Data(file.utf8.prefix { $0 != 0x0A }))
            #expect(event.message == "rejected Bearer [Filtered] for kim")
            let crumbs = event.breadcrumbs?.values ?? []
            #expect(crumbs.first?.message == "refreshing with refresh_token=[Filtered]")
            #expect(crumbs.first?.data?["upstream"] == .string("https://svc:[Filtered]@auth.internal"))
            #expect(crumbs.last?.data?["reason"] == .string("invalid token [Filtered]"))
        }

        /// Waits until `reporter` has captured `count` events: records reach it shortly after they are logged.
        private static func waitUntilCaptured(_ count: Int, by reporter: Reporter) async throws {
            try await wait(for: "\(count) records captured") {
                await reporter.statistics.captured.values.reduce(0, +) >= count
            }
        }
    }
#endif
