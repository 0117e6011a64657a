import Faultline
import FaultlineReporting
import FaultlineTestServer
import Foundation
import TestSupport
import Testing

/// The options Sentry users look for after the DSN: `serverName`, `sendDefaultPii`, `inAppInclude`/`inAppExclude`, and
/// a fingerprint and level set on the scope for one capture.
@Suite struct SentryOptionsTests {
    struct PaymentDeclined: Error {}

    @Test func eventsAndTransactionsNameTheServerAndTheHostNameIsTheDefaultOffPhones() async throws {
        let log = try LogDirectory()
        defer { log.remove() }
        // Given a reporter on this Linux machine that records transactions, and one whose app names its server
        let defaults = Reporter.Options(logDirectory: log.url, environmentVariables: [:])
        #expect(defaults.serverName == ProcessInfo.processInfo.hostName)
        #expect(defaults.serverName?.isEmpty == false)
        var options = defaults
        options.serverName = "api-7"
        options.tracesSampleRate = 1
        let reporter = try Reporter(options: options)

        // When it captures an error and records a span
        await reporter.capture(error: PaymentDeclined())
        await reporter.withSpan("checkout", operation: "task") {}

        // Then the event and the transaction both carry it
        #expect(try await log.events(writtenBy: reporter).map(\.serverName) == ["api-7"])
        #expect(try log.transactions().map { $0["server_name"] } == [.string("api-7")])
        await reporter.close()
    }

    @Test func sendDefaultPiiAsksTheServerForTheUsersAddressUnlessTheAppGaveOne() async throws {
        var users: [Bool: [UserContext?]] = [:]
        for sendsPii in [false, true] {
            let log = try LogDirectory()
            defer { log.remove() }
            // Given a reporter with sendDefaultPii off, then on
            var options = Reporter.Options(logDirectory: log.url, environmentVariables: [:])
            options.sendDefaultPii = sendsPii
            let reporter = try Reporter(options: options)

            // When it captures an event without a user, one with a user, and one with a user whose address is known
            await reporter.capture(error: PaymentDeclined())
            await reporter.capture(error: PaymentDeclined(), user: UserContext(id: "KAKAO_kim"))
            await reporter.capture(error: PaymentDeclined(), user: UserContext(id: "cy", ipAddress: "203.0.113.9"))
            users[sendsPii] = try await log.events(writtenBy: reporter).map(\.user)
            await reporter.close()
        }

        // Then without it only what the app set is sent
        #expect(users[false] == [nil, UserContext(id: "KAKAO_kim"), UserContext(id: "cy", ipAddress: "203.0.113.9")])
        // and with it the server is asked to fill in the address where the app gave none
        #expect(
            users[true] == [
                UserContext(ipAddress: "{{auto}}"), UserContext(id: "KAKAO_kim", ipAddress: "{{auto}}"),
                UserContext(id: "cy", ipAddress: "203.0.113.9"),
            ])
    }

    @Test func inAppExcludeMarksAWrappersFramesAsNotTheAppsAndInAppIncludeWins() async throws {
        var inApp: [String: Bool?] = [:]
        let cases: [(String, include: [String], exclude: [String])] = [
            ("default", [], []), ("excluded", [], ["FaultlineReporting"]),
            ("included", ["FaultlineReportingTests"], ["FaultlineReporting"]),
        ]
        for (name, include, exclude) in cases {
            let log = try LogDirectory()
            defer { log.remove() }
            // Given the include and exclude prefixes of the case
            var options = Reporter.Options(logDirectory: log.url, environmentVariables: [:])
            options.inAppInclude = include
            options.inAppExclude = exclude
            let reporter = try Reporter(options: options)

            // When code in this module (FaultlineReportingTests) captures an error
            await reporter.capture(error: PaymentDeclined())
            let event = try #require(try await log.events(writtenBy: reporter).first)
            let frame = try #require(event.exception?.values.last?.stacktrace?.frames.first)
            #expect(frame.module == "FaultlineReportingTests")
            inApp[name] = frame.inApp
            await reporter.close()
        }

        // Then its frame is the app's by default, not with a prefix of its module excluded, and is when included too
        #expect(inApp == ["default": true, "excluded": false, "included": true])
    }

    @Test func aFingerprintAndLevelSetForOneCaptureGroupAndRankThatEventAndTheLimitCountsByThem() async throws {
        let log = try LogDirectory()
        defer { log.remove() }
        try await SeedServer.run { server in
            // Given a reporter with the default limit of 10 events of a fingerprint a minute, and a server failure
            let reporter = try Reporter(options: .init(logDirectory: log.url, environmentVariables: [:]))
            let client = APIClient(baseURL: server.baseURL)
            let request = APIRequest<EmptyResponse>(.get, "/malformed/{kind}", pathParameters: ["kind": "html"])
            let failure = try #require(await #expect(throws: RequestFailure.self) { try await client.send(request) })

            // When the app captures a failure with its default fingerprint split by flow and its level lowered
            await reporter.capture(failure) {
                $0.fingerprint = ["{{ default }}", "checkout"]
                $0.level = .warning
            }
            // and twelve different errors under one fingerprint of its own
            for attempt in 1...12 {
                await reporter.capture(error: NSError(domain: "pay", code: attempt)) { $0.fingerprint = ["payments"] }
            }

            // Then the failure's event has its own fingerprint with the flow after it, at the level set
            let events = try await log.events(writtenBy: reporter)
            let own = try #require(events.first)
            #expect(own.level == .warning)
            #expect(own.fingerprint?.last == "checkout")
            let expected = try #require(FailureEventBuilder.fingerprint(for: failure))
            #expect(own.fingerprint.map { Array($0.dropLast()) } == expected)
            // and the errors are one fingerprint to the limit: 10 kept, the rest counted
            #expect(events.dropFirst().allSatisfy { $0.fingerprint == ["payments"] && $0.level == .error })
            #expect(events.count == 11)
            #expect(await reporter.statistics.suppressedByFingerprintLimit == 2)
            // while the scope itself is left as it was
            await reporter.capture(error: PaymentDeclined())
            let after = try #require(try await log.events(writtenBy: reporter).last)
            #expect(after.fingerprint == nil && after.level == .error)
            await reporter.close()
        }
    }

    @Test func beforeSendTransactionRenamesTrimsAndDropsTransactions() async throws {
        let log = try LogDirectory()
        defer { log.remove() }
        try await SeedServer.run { server in
            // Given a reporter that records every trace, whose hook drops health checks and renames, tags and trims
            // the others to their first span
            var options = Reporter.Options(logDirectory: log.url, environmentVariables: [:])
            options.tracesSampleRate = 1
            options.beforeSendTransaction = { transaction in
                guard transaction.name != "health check" else { return nil }
                var changed = transaction
                changed.name = "checkout screen"
                changed.tags["flow"] = "checkout"
                changed.spans = Array(transaction.spans.prefix(1))
                changed.spans[0].description += " (first)"
                return changed
            }
            let reporter = try Reporter(options: options)
            let client = APIClient(baseURL: server.baseURL) {
                $0.middlewares = [CaptureMiddleware(reporter: reporter, baseURL: server.baseURL)]
            }

            // When the app records a health check, and a screen that makes two requests
            await reporter.withSpan("health check", operation: "task") {}
            try await reporter.withSpan("load checkout", operation: "ui.load") {
                for ms in ["0", "1"] {
                    _ = try await client.send(
                        APIRequest<SlowAnswer>(.get, "/slow", query: [URLQueryItem(name: "ms", value: ms)]))
                }
            }
            await reporter.flush(timeout: patience)

            // Then only the screen is written, as the hook changed it
            let transactions = try log.transactions()
            #expect(transactions.count == 1)
            let transaction = try #require(transactions.first)
            #expect(transaction["transaction"] == "checkout screen")
            #expect(transaction["tags"]?.objectValue?["flow"] == "checkout")
            guard case .array(let spans)? = transaction["spans"] else {
                Issue.record("no spans: \(transaction)")
                return
            }
            #expect(spans.count == 1)
            #expect(spans.first?.objectValue?["description"] == "GET /slow (first)")
            // and the health check is counted as dropped by the hook
            #expect(await reporter.statistics.droppedByBeforeSend == 1)
            #expect(await reporter.statistics.transactions == 1)
            await reporter.close()
        }
    }

    struct SlowAnswer: Decodable, Sendable {
        let ok: Bool
    }
}
