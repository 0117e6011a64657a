import Faultline
import FaultlineReporting
import FaultlineTestServer
import Foundation
import SeedScenarios
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The capture API for apps on another HTTP stack: the same classification and events without Faultline's client.
@Suite struct ReporterTests {
    @Test func aResponseFromAnotherStackIsClassifiedWithTheSameContract() async throws {
        let log = try LogDirectory()
        defer { log.remove() }
        try await SeedServer.run { server in
            // Given an app that calls the server with URLSession directly (as Alamofire would)
            let reporter = try Reporter(options: .init(logDirectory: log.url))
            let tokens = await server.state.issueTokens(for: .boleto)
            var request = URLRequest(url: server.baseURL.appendingPathComponent("boleto/travels"))
            request.httpMethod = "POST"
            request.setValue("Bearer \(tokens.accessToken)", forHTTPHeaderField: "Authorization")
            let (body, response) = try await URLSession.shared.data(for: request)

            // When it hands the outcome to the reporter
            let classifier = FailureClassifier(contract: BoletoAPI.errorContract, catalog: BoletoAPI.codeCatalog)
            let id = await reporter.capture(
                request: request, route: "/boleto/travels", response: response as? HTTPURLResponse, body: body,
                classifier: classifier)

            // Then the event is what the client's capture would have written, credentials scrubbed
            let event = try #require(try await log.events(writtenBy: reporter).first)
            #expect(event.eventID == id)
            #expect(event.tags["server.code"] == "40013")
            #expect(event.tags["server.category"] == "bad_request")
            #expect(event.fingerprint == ["server", "POST /boleto/travels", "400", "40013"])
            #expect(event.request?.headers?["authorization"] == "[Filtered]")
        }
    }

    @Test func aDecodingErrorFromAnotherStackNamesItsPath() async throws {
        let log = try LogDirectory()
        defer { log.remove() }
        try await SeedServer.run { server in
            let reporter = try Reporter(options: .init(logDirectory: log.url))
            let tokens = await server.state.issueTokens(for: .boleto)
            var request = URLRequest(url: server.baseURL.appendingPathComponent("boleto/users/40"))
            request.setValue("Bearer \(tokens.accessToken)", forHTTPHeaderField: "Authorization")
            let (body, response) = try await URLSession.shared.data(for: request)
            let decodingError: (any Error)?
            do {
                _ = try JSONDecoder().decode(BoletoAPI.Envelope<BoletoAPI.User>.self, from: body)
                decodingError = nil
            } catch {
                decodingError = error
            }

            await reporter.capture(
                request: request, route: "/boleto/users/{id}", response: response as? HTTPURLResponse, body: body,
                decodingError: decodingError, decodedType: BoletoAPI.Envelope<BoletoAPI.User>.self)
            let success = await reporter.capture(
                request: request, response: response as? HTTPURLResponse, body: body)

            let events = try await log.events(writtenBy: reporter)
            #expect(events.count == 1)
            #expect(events.first?.tags["decoding.path"] == "data.profileImage")
            #expect(events.first?.fingerprint == ["decoding", "Envelope<User>", "data.profileImage"])
            #expect(success == nil)
        }
    }

    @Test func anyErrorOrMessageCanBeCaptured() async throws {
        struct PaymentDeclined: Error {}
        let log = try LogDirectory()
        defer { log.remove() }
        var options = Reporter.Options(logDirectory: log.url)
        options.release = "shop@3.1.0"
        options.environment = "staging"
        let reporter = try Reporter(options: options)
        await reporter.addBreadcrumb(Breadcrumb(category: "ui", message: "tapped pay"))

        let ids = [
            await reporter.capture(error: PaymentDeclined()),
            await reporter.capture(message: "checkout opened without a cart", level: .warning),
        ]

        let events = try await log.events(writtenBy: reporter)
        #expect(events.count == 2)
        #expect(events.map(\.eventID) == ids.compactMap { $0 })
        #expect(events.allSatisfy { $0.release == "shop@3.1.0" && $0.environment == "staging" })
        #expect(events[0].exception?.values.first?.type.hasSuffix("PaymentDeclined") == true)
        #expect(events[0].breadcrumbs?.values.first?.message == "tapped pay")
        #expect(events[1].message == "checkout opened without a cart")
        #expect(events[1].level == .warning)
        #expect(await reporter.statistics.captured == ["other": 1, "message": 1])
    }

    @Test func theBreadcrumbRingKeepsTheNewest() {
        var scope = Scope(maxBreadcrumbs: 3)
        for index in 1...5 { scope.addBreadcrumb(Breadcrumb(message: "\(index)")) }

        #expect(scope.breadcrumbs.map(\.message) == ["3", "4", "5"])
    }
}
