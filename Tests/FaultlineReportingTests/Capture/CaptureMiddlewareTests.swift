import Faultline
import FaultlineReporting
import FaultlineTestServer
import Foundation
import SeedScenarios
import Synchronization
import TestSupport
import Testing

/// The capture middleware turns a client's final failures into events in the local log, with the scope's user and
/// the requests before them as breadcrumbs; refreshes are breadcrumbs, cancellations nothing.
@Suite struct CaptureMiddlewareTests {
    struct Setup {
        let client: APIClient
        let reporter: Reporter
        let refresher: TokenRefresher<BoletoAPI.Authenticator>
    }

    static func setup(
        _ server: RunningSeedServer, log: LogDirectory, configure: (inout Reporter.Options) -> Void = { _ in }
    ) async throws -> Setup {
        var options = Reporter.Options(logDirectory: log.url)
        options.release = "boleto@2.4.1"
        configure(&options)
        let reporter = try Reporter(options: options)
        let tokens = await server.state.issueTokens(for: .boleto)
        let refresher = TokenRefresher(
            authenticator: BoletoAPI.Authenticator(baseURL: server.baseURL),
            credential: BearerTokens(tokens))
        let client = BoletoAPI.client(
            baseURL: server.baseURL,
            middlewares: [
                CaptureMiddleware(reporter: reporter, baseURL: server.baseURL),
                RetryMiddleware(policy: .never), AuthenticationMiddleware(refresher: refresher),
            ])
        await reporter.observe(refresher)
        return Setup(client: client, reporter: reporter, refresher: refresher)
    }

    /// The categories of the breadcrumbs in `reporter`'s scope now.
    static func breadcrumbCategories(of reporter: Reporter) async -> [String] {
        let categories = Mutex<[String]>([])
        await reporter.configureScope { scope in categories.withLock { $0 = scope.breadcrumbs.compactMap(\.category) } }
        return categories.withLock { $0 }
    }

    static func user(_ id: Int) -> APIRequest<BoletoAPI.Envelope<BoletoAPI.User>> {
        APIRequest(.get, "/boleto/users/{id}", pathParameters: ["id": String(id)])
    }

    @Test func aFailureBecomesOneEventWithTheUserAndThePrecedingRequests() async throws {
        let log = try LogDirectory()
        defer { log.remove() }
        try await SeedServer.run { server in
            // Given a signed-in user who loaded two profiles
            let setup = try await Self.setup(server, log: log)
            await setup.reporter.setUser(UserContext(id: "KAKAO_kim", segment: "KAKAO"))
            _ = try await setup.client.send(Self.user(1))
            _ = try await setup.client.send(Self.user(3))

            // When a business failure follows
            _ = try? await setup.client.send(APIRequest<EmptyResponse>(.post, "/boleto/travels"))

            // Then one event carries it, the user, and the two requests before it
            let events = try await log.events(writtenBy: setup.reporter)
            #expect(events.count == 1)
            let event = try #require(events.first)
            #expect(event.tags["server.code"] == "40013")
            #expect(event.user?.id == "KAKAO_kim")
            #expect(event.release == "boleto@2.4.1")
            #expect(event.contexts["os"]?.objectValue?["name"] != nil)
            let crumbs = event.breadcrumbs?.values ?? []
            #expect(crumbs.map(\.message) == ["GET /boleto/users/{id}", "GET /boleto/users/{id}"])
            #expect(crumbs.first?.data?["status_code"] == 200)
            #expect(crumbs.first?.type == "http")
        }
    }

    @Test(arguments: [false, true])
    func theBreadcrumbsOfManyRequestsHandedOverAtOnceAreTheNewest(withBeforeBreadcrumb: Bool) async throws {
        let log = try LogDirectory()
        defer { log.remove() }
        let seen = Mutex(0)
        try await SeedServer.run { server in
            // Given a scope of 5 breadcrumbs, and 12 successful requests handed over to the reporter at once with the
            // failure that follows them (with a beforeBreadcrumb too, which must see every breadcrumb)
            let setup = try await Self.setup(server, log: log) { options in
                options.maxBreadcrumbs = 5
                if withBeforeBreadcrumb {
                    options.beforeBreadcrumb = { breadcrumb in
                        seen.withLock { $0 += 1 }
                        return breadcrumb
                    }
                }
            }
            for id in 1...12 { _ = try await setup.client.send(Self.user(id)) }
            _ = try? await setup.client.send(APIRequest<EmptyResponse>(.post, "/boleto/travels"))
            for id in 21...23 { _ = try await setup.client.send(Self.user(id)) }
            await setup.reporter.capture(message: "after")

            // Then the failure's event carries the 5 requests before it, and the message the 5 newest breadcrumbs
            let events = try await log.events(writtenBy: setup.reporter)
            #expect(events.count == 2)
            func paths(_ event: SentryEvent?) -> [String] {
                (event?.breadcrumbs?.values ?? []).compactMap { $0.data?["url"]?.stringValue }.map {
                    String($0.split(separator: "/", omittingEmptySubsequences: false).suffix(2).joined(separator: "/"))
                }
            }
            #expect(paths(events.first) == (8...12).map { "users/\($0)" })
            #expect(paths(events.last) == ["users/12", "boleto/travels", "users/21", "users/22", "users/23"])
        }
        #expect(seen.withLock { $0 } == (withBeforeBreadcrumb ? 16 : 0))
    }

    @Test func aSuccessfulRefreshIsABreadcrumbNotAnEvent() async throws {
        let log = try LogDirectory()
        defer { log.remove() }
        try await SeedServer.run { server in
            let setup = try await Self.setup(server, log: log)
            await server.state.expireAccessTokens(of: .boleto)

            _ = try await setup.client.send(Self.user(5))
            // The refresh reaches the reporter through the refresher's session events, after the request returns.
            let refreshed = try await eventually {
                await Self.breadcrumbCategories(of: setup.reporter).contains("auth.refresh")
            }
            #expect(refreshed)
            _ = try? await setup.client.send(Self.user(20))

            let events = try await log.events(writtenBy: setup.reporter)
            #expect(events.count == 1)
            #expect(events.first?.tags["error.kind"] == "decoding")
            let categories = events.first?.breadcrumbs?.values.compactMap(\.category) ?? []
            #expect(categories.contains("auth.refresh"))
        }
    }

    @Test func aSessionExpirySharedByManyRequestsIsOneEvent() async throws {
        let log = try LogDirectory()
        defer { log.remove() }
        try await SeedServer.run { server in
            let setup = try await Self.setup(server, log: log)
            await server.state.expireAccessTokens(of: .boleto)
            await server.state.expireRefreshTokens(of: .boleto)
            await server.state.setRefreshDelay(.milliseconds(100), for: .boleto)

            await withTaskGroup(of: Void.self) { group in
                for id in 1...20 {
                    group.addTask { _ = try? await setup.client.send(Self.user(id * 2 + 1)) }
                }
            }

            let events = try await log.events(writtenBy: setup.reporter)
            #expect(events.count == 1)
            #expect(events.first?.tags["error.kind"] == "session_expired")
            #expect(events.first?.fingerprint == ["session_expired", "refresh_failed"])
        }
    }

    @Test func cancellationsAreNeverCaptured() async throws {
        let log = try LogDirectory()
        defer { log.remove() }
        try await SeedServer.run { server in
            let setup = try await Self.setup(server, log: log)
            // Given a request in flight on a slow route
            let task = Task {
                try await setup.client.send(
                    APIRequest<EmptyResponse>(.get, "/slow", query: [.init(name: "ms", value: "5000")]))
            }
            try await Task.sleep(for: .milliseconds(100))

            // When it is cancelled, and a request that fails with a 500 follows
            task.cancel()
            _ = await task.result
            _ = try? await setup.client.send(APIRequest<EmptyResponse>(.get, "/e05/crash"))

            // Then the log holds the 500 only: it would have shown the cancellation too
            let events = try await log.events(writtenBy: setup.reporter)
            #expect(events.map { $0.tags["http.status_code"] } == ["500"])
            #expect(events.allSatisfy { $0.tags["error.kind"] != "cancelled" })
        }
    }

    @Test func statusesAndTargetsOutsideTheOptionsAreNotCaptured() async throws {
        let log = try LogDirectory()
        defer { log.remove() }
        try await SeedServer.run { server in
            let setup = try await Self.setup(server, log: log) { $0.failedRequestStatusCodes = [500...599] }

            _ = try? await setup.client.send(APIRequest<EmptyResponse>(.post, "/boleto/travels"))
            _ = try? await setup.client.send(APIRequest<EmptyResponse>(.get, "/e05/crash"))
            _ = try? await setup.client.send(
                APIRequest<String>(.get, "/boleto/stickers/{c}", pathParameters: ["c": "1"]))

            let events = try await log.events(writtenBy: setup.reporter)
            #expect(events.map { $0.tags["http.status_code"] } == ["500", "200"])
        }
    }

    @Test func onlyTheClientsOwnBaseURLIsCapturedByDefault() {
        let options = Reporter.Options(logDirectory: URL(fileURLWithPath: "/tmp"))
        var context = RequestContext(
            requestID: "r", method: .get, route: "/appcast.xml",
            url: URL(string: "https://updates.example/appcast.xml")!,
            allowsRetry: true)
        context.statusCode = 503
        let thirdParty = RequestFailure(.transport(TransportFailure(URLError(.timedOut))), context: context)

        #expect(!options.capturesAutomatically(thirdParty, baseURL: URL(string: "https://api.boleto.example")!))
        #expect(options.capturesAutomatically(thirdParty, baseURL: URL(string: "https://updates.example")!))
    }

    @Test func beforeSendRewritesOrDropsAndAPerRequestUserWins() async throws {
        let log = try LogDirectory()
        defer { log.remove() }
        try await SeedServer.run { server in
            let setup = try await Self.setup(server, log: log) { options in
                options.beforeSend = { event in
                    guard event.tags["server.code"] != "40304" else { return nil }
                    var event = event
                    event.tags["team"] = "travel"
                    return event
                }
            }
            await setup.reporter.setUser(UserContext(id: "scope-user"))

            _ = try? await setup.client.send(
                APIRequest<EmptyResponse>(.patch, "/boleto/travels/{id}", pathParameters: ["id": "1"]))
            await RequestUser.$current.withValue(UserContext(id: "APPLE_lee")) {
                _ = try? await setup.client.send(APIRequest<EmptyResponse>(.post, "/boleto/travels"))
            }

            let events = try await log.events(writtenBy: setup.reporter)
            #expect(events.count == 1)
            #expect(events.first?.tags["team"] == "travel")
            #expect(events.first?.user?.id == "APPLE_lee")
            #expect(await setup.reporter.statistics.droppedByBeforeSend == 1)
        }
    }

    @Test func aUserBoundForOneRequestKeepsItsTypedThrows() async throws {
        let log = try LogDirectory()
        defer { log.remove() }
        try await SeedServer.run { server in
            let setup = try await Self.setup(server, log: log)
            await setup.reporter.setUser(UserContext(id: "scope-user"))

            // the client's typed throws reach the catch: `error` is a RequestFailure, no casting
            var code: ServerCode?
            do throws(RequestFailure) {
                try await RequestUser.with(UserContext(id: "APPLE_lee")) { () async throws(RequestFailure) in
                    _ = try await setup.client.send(APIRequest<EmptyResponse>(.post, "/boleto/travels"))
                }
            } catch {
                code = error.serverFailure?.code
            }

            #expect(code == 40013)
            let events = try await log.events(writtenBy: setup.reporter)
            #expect(events.map { $0.user?.id } == ["APPLE_lee"])
            // and a value comes back as the operation returned it
            let value = await RequestUser.with(nil) { RequestUser.current?.id ?? "unbound" }
            #expect(value == "unbound")
        }
    }

    @Test func concurrentFailuresEachCarryTheRequestsBeforeThemButNeverTheirOwn() async throws {
        let log = try LogDirectory()
        defer { log.remove() }
        try await SeedServer.run { server in
            // Given a client whose middleware records each outcome with one call
            let setup = try await Self.setup(server, log: log)

            // When ten business failures end at once
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        _ = try? await setup.client.send(APIRequest<EmptyResponse>(.post, "/boleto/travels"))
                    }
                }
            }

            // Then each is one event, whose breadcrumbs are the requests that ended before it and not its own
            let events = try await log.events(writtenBy: setup.reporter)
            #expect(events.count == 10)
            for (index, event) in events.enumerated() {
                let own = event.contexts["faultline"]?.objectValue?["request_id"]
                let crumbs = event.breadcrumbs?.values ?? []
                #expect(own != nil)
                #expect(crumbs.count == index)
                #expect(!crumbs.contains { $0.data?["request_id"] == own })
            }
        }
    }

    @Test func aFailureOutsideTheTargetsIsABreadcrumbButNoEvent() async throws {
        let log = try LogDirectory()
        defer { log.remove() }
        try await SeedServer.run { server in
            // Given a reporter that captures only another host's failures, and one with the defaults
            let elsewhere = try await Self.setup(server, log: log) { $0.failedRequestTargets = ["api.other.example"] }
            let controlLog = try LogDirectory()
            defer { controlLog.remove() }
            let control = try await Self.setup(server, log: controlLog)

            // When each client's request fails, then a message is captured
            for setup in [elsewhere, control] {
                _ = try? await setup.client.send(APIRequest<EmptyResponse>(.post, "/boleto/travels"))
                await setup.reporter.capture(message: "checkout opened")
            }

            // Then the failure outside the targets is only the message's breadcrumb, while the default captures it
            let events = try await log.events(writtenBy: elsewhere.reporter)
            #expect(events.map { $0.tags["error.kind"] } == ["message"])
            let crumb = try #require(events.first?.breadcrumbs?.values.first)
            #expect(crumb.message == "POST /boleto/travels")
            #expect(crumb.data?["status_code"] == 400)
            #expect(crumb.data?["reason"] == "server")
            let controlEvents = try await controlLog.events(writtenBy: control.reporter)
            #expect(controlEvents.map { $0.tags["error.kind"] } == ["server", "message"])
        }
    }
}
