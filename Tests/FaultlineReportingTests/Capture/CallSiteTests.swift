import Faultline
import FaultlineReporting
import FaultlineTestServer
import Foundation
import SeedScenarios
import TestSupport
import Testing

/// Sentry's `attachStacktrace`: an event names the code that sent the failed request or captured it, as one in-app
/// frame of its stack trace, while grouping stays by the failure's fingerprint.
@Suite struct CallSiteTests {
    struct PaymentDeclined: Error {}

    /// Two screens of an app that load the same route.
    struct Screens {
        let client: APIClient

        func profileScreen() async -> Int {
            let line = #line + 1
            _ = try? await client.send(CaptureMiddlewareTests.user(20))
            return line
        }

        func settingsScreen() async -> Int {
            let line = #line + 1
            _ = try? await repository(CaptureMiddlewareTests.user(20))
            return line
        }

        /// An app's wrapper of `send` that passes its caller's place on.
        func repository<Response>(
            _ request: APIRequest<Response>, file: String = #fileID, function: String = #function, line: Int = #line
        ) async throws(RequestFailure) -> APIResponse<Response> {
            try await client.send(request, file: file, function: function, line: line)
        }
    }

    @Test func aFailureNamesTheCodeThatSentItAndTwoCallersStayOneIssue() async throws {
        let log = try LogDirectory()
        defer { log.remove() }
        try await SeedServer.run { server in
            // Given two screens that load the same profile, one through a wrapper of send
            let setup = try await CaptureMiddlewareTests.setup(server, log: log)
            let screens = Screens(client: setup.client)

            // When the profile fails to decode on both
            let profileLine = await screens.profileScreen()
            let settingsLine = await screens.settingsScreen()

            // Then each event's exception has one in-app frame: the screen's file, function and line
            let events = try await log.events(writtenBy: setup.reporter)
            #expect(events.count == 2)
            let frames = events.map { $0.exception?.values.last?.stacktrace?.frames ?? [] }
            #expect(frames.map(\.count) == [1, 1])
            let expected = [("profileScreen()", profileLine), ("settingsScreen()", settingsLine)]
            for (frame, (function, line)) in zip(frames.map(\.first), expected) {
                #expect(frame?.function == function)
                #expect(frame?.lineno == line)
                #expect(frame?.filename == "FaultlineReportingTests/CallSiteTests.swift")
                #expect(frame?.module == "FaultlineReportingTests")
                #expect(frame?.inApp == true)
            }
            // and both are one issue
            #expect(events.first?.fingerprint == events.last?.fingerprint)
            #expect(events.first?.tags["error.kind"] == "decoding")
        }
    }

    @Test func anErrorAndAMessageCapturedByHandNameTheirCaller() async throws {
        let log = try LogDirectory()
        defer { log.remove() }
        let reporter = try Reporter(options: .init(logDirectory: log.url, environmentVariables: [:]))

        // When an error and a message are captured
        let errorLine = #line + 1
        await reporter.capture(error: PaymentDeclined())
        let messageLine = #line + 1
        await reporter.capture(message: "checkout opened twice", level: .warning)

        // Then the error's exception carries its caller; the message, which has no exception, carries it as the
        // current thread's stack trace
        let events = try await log.events(writtenBy: reporter)
        #expect(events.count == 2)
        let errorFrame = events.first?.exception?.values.last?.stacktrace?.frames.last
        #expect(errorFrame?.lineno == errorLine)
        #expect(errorFrame?.function == "anErrorAndAMessageCapturedByHandNameTheirCaller()")
        let thread = try #require(events.last?.threads?.values.first)
        #expect(thread.current == true)
        #expect(thread.stacktrace?.frames.last?.lineno == messageLine)
        #expect(events.last?.exception == nil)
    }

    @Test func withAttachStacktraceOffNoEventCarriesAFrame() async throws {
        let log = try LogDirectory()
        defer { log.remove() }
        try await SeedServer.run { server in
            // Given attachStacktrace off
            let setup = try await CaptureMiddlewareTests.setup(server, log: log) { $0.attachStacktrace = false }

            // When a request fails and a message is captured
            _ = try? await setup.client.send(CaptureMiddlewareTests.user(20))
            await setup.reporter.capture(message: "checkout opened twice")

            // Then neither event has a stack trace, and the failure is the same event otherwise
            let events = try await log.events(writtenBy: setup.reporter)
            #expect(events.count == 2)
            #expect(events.first?.exception?.values.last?.stacktrace == nil)
            #expect(events.first?.tags["error.kind"] == "decoding")
            #expect(events.last?.threads == nil)
        }
    }
}
