import Faultline
import FaultlineTestServer
import Foundation
import SeedScenarios
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// S4–S6: one refresh in flight, every waiter resumes with its outcome, a failed refresh is one session expiry.
@Suite struct TokenRefreshTests {
    static func userRequest(_ id: Int) -> APIRequest<BoletoAPI.Envelope<BoletoAPI.User>> {
        APIRequest(.get, "/boleto/users/{id}", pathParameters: ["id": String(id)])
    }

    /// Returns once `server` has been asked for a refresh.
    static func waitForARefresh(on server: RunningSeedServer) async throws {
        try await wait(for: "a refresh") { await server.state.refreshCount(of: .boleto) > 0 }
    }

    @Test func fiftyConcurrent401sTriggerOneRefreshAndEachRejectedRequestIsReplayedOnce() async throws {
        try await SeedServer.run { server in
            // Given 50 requests whose access token expired, and a refresh slow enough for all of them to pile up
            let tokens = await server.state.issueTokens(for: .boleto)
            let (client, refresher) = SeedClients.boleto(server, tokens: tokens)
            await server.state.expireAccessTokens(of: .boleto)
            await server.state.setRefreshDelay(.milliseconds(300), for: .boleto)

            // When they run at once
            let attempts = try await withThrowingTaskGroup(of: Int.self) { group in
                for id in 1...50 {
                    group.addTask { try await client.send(Self.userRequest(id * 2 + 1)).context.attempt }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }

            // Then the server saw exactly one refresh, and every request rejected with the old token came back once
            // with the new one
            #expect(await server.state.refreshCount(of: .boleto) == 1)
            let newTokens = try #require(await refresher.currentCredential)
            #expect(newTokens.accessToken != tokens.accessToken)
            let rejected = await server.state.requestCount(withAccessToken: tokens.accessToken)
            #expect(rejected >= 1)
            #expect(await server.state.requestCount(withAccessToken: newTokens.accessToken) == 50)
            #expect(attempts.count(where: { $0 == 2 }) == rejected)
            #expect(attempts.allSatisfy { $0 <= 2 })
        }
    }

    @Test func aFailedRefreshFailsEveryWaiterWithTheSameSessionExpiryAndPublishesItOnce() async throws {
        try await SeedServer.run { server in
            // Given an expired access token and an expired refresh token
            let tokens = await server.state.issueTokens(for: .boleto)
            let (client, refresher) = SeedClients.boleto(server, tokens: tokens)
            let events = SessionEventRecorder(await refresher.sessionEvents())
            await server.state.expireAccessTokens(of: .boleto)
            await server.state.expireRefreshTokens(of: .boleto)
            await server.state.setRefreshDelay(.milliseconds(200), for: .boleto)

            // When 50 requests run at once
            let failures = await withTaskGroup(of: RequestFailure?.self) { group in
                for id in 1...50 {
                    group.addTask { await failure { try await client.send(Self.userRequest(id * 2 + 1)) } }
                }
                return await group.reduce(into: [RequestFailure]()) { if let failure = $1 { $0.append(failure) } }
            }

            // Then all 50 fail with one and the same expiry, caused by the refresh call's 40101
            #expect(failures.count == 50)
            let expiries = failures.compactMap(\.sessionExpiry)
            #expect(expiries.count == 50)
            #expect(Set(expiries.map(\.id)).count == 1)
            guard case .refreshFailed(let cause) = expiries.first?.cause else {
                Issue.record("expected a refresh failure, got \(String(describing: expiries.first))")
                return
            }
            let refreshFailure = try #require(cause as? RequestFailure)
            #expect(refreshFailure.serverFailure?.code == 40101)
            #expect(refreshFailure.context.endpoint == "POST /boleto/auth/refresh")
            #expect(await server.state.refreshCount(of: .boleto) == 1)
            let received = try await events.stop { $0.contains(where: \.isExpired) }
            #expect(received.count(where: \.isExpired) == 1)
            #expect(received.count(where: \.isRefreshed) == 0)
        }
    }

    @Test func afterAnExpiryRequestsFailAtOnceUntilTheUserSignsInAgain() async throws {
        try await SeedServer.run { server in
            // Given a session that expired
            let (client, refresher) = SeedClients.boleto(server, tokens: await server.state.issueTokens(for: .boleto))
            await server.state.expireAccessTokens(of: .boleto)
            await server.state.expireRefreshTokens(of: .boleto)
            let first = await failure { try await client.send(Self.userRequest(1)) }

            // When another request is made
            let second = await failure { try await client.send(Self.userRequest(3)) }

            // Then it fails with the same expiry without calling the server
            #expect(second?.sessionExpiry?.id == first?.sessionExpiry?.id)
            #expect(await server.state.refreshCount(of: .boleto) == 1)

            // And after signing in again, requests go through
            await refresher.setCredential(BearerTokens(await server.state.issueTokens(for: .boleto)))
            let user = try await client.send(Self.userRequest(3)).value.data
            #expect(user?.id == 3)
        }
    }

    @Test func aLate401SignedWithAnOlderCredentialIsReplayedWithoutASecondRefresh() async throws {
        try await SeedServer.run { server in
            // Given a request that was signed with the old token but reaches the server late
            let tokens = await server.state.issueTokens(for: .boleto)
            let refresher = TokenRefresher(
                authenticator: BoletoAPI.Authenticator(baseURL: server.baseURL), credential: BearerTokens(tokens))
            let client = APIClient(baseURL: server.baseURL) {
                $0.errorContract = BoletoAPI.errorContract
                $0.middlewares = [AuthenticationMiddleware(refresher: refresher), HoldBackMiddleware()]
            }
            await server.state.expireAccessTokens(of: .boleto)
            var late = Self.userRequest(5)
            late.headers[HoldBackMiddleware.header] = "400"
            async let lateUser = client.send(late)
            try await Task.sleep(for: .milliseconds(50))

            // When another request meets the expiry first and refreshes
            let prompt = try await client.send(Self.userRequest(7))
            #expect(prompt.context.attempt == 2)

            // Then the late one's 401 is answered with the new token, with no second refresh
            let lateResponse = try await lateUser
            #expect(lateResponse.value.data?.id == 5)
            #expect(lateResponse.context.attempt == 2)
            #expect(await server.state.refreshCount(of: .boleto) == 1)
            #expect(await server.state.requestCount(withAccessToken: tokens.accessToken) == 2)
        }
    }

    @Test func moreRefreshesThanTheWindowAllowsExpireTheSession() async throws {
        try await SeedServer.run { server in
            // Given a window of two refreshes a minute
            let window = RefreshWindow(maximumRefreshes: 2, interval: .seconds(60))
            let (client, refresher) = SeedClients.boleto(
                server, tokens: await server.state.issueTokens(for: .boleto), refreshWindow: window)
            let events = SessionEventRecorder(await refresher.sessionEvents())

            // When the server rejects the access token three times in a row
            for _ in 1...2 {
                await server.state.expireAccessTokens(of: .boleto)
                _ = try await client.send(Self.userRequest(1))
            }
            await server.state.expireAccessTokens(of: .boleto)
            let failure = await failure { try await client.send(Self.userRequest(1)) }

            // Then the third rejection expires the session instead of refreshing a third time
            guard case .refreshLimitExceeded(let exceeded) = failure?.sessionExpiry?.cause else {
                Issue.record("expected the refresh limit, got \(String(describing: failure))")
                return
            }
            #expect(exceeded == window)
            #expect(await server.state.refreshCount(of: .boleto) == 2)
            let received = try await events.stop {
                $0.count(where: \.isRefreshed) == 2 && $0.contains(where: \.isExpired)
            }
            #expect(received.count(where: \.isRefreshed) == 2)
            #expect(received.count(where: \.isExpired) == 1)
        }
    }

    @Test func aSuccessfulRefreshIsASessionEventAndNeverAFailure() async throws {
        try await SeedServer.run { server in
            // Given a client whose failures and session events are observed
            let (client, refresher) = SeedClients.boleto(server, tokens: await server.state.issueTokens(for: .boleto))
            let events = SessionEventRecorder(await refresher.sessionEvents())
            var failures = await client.failures().makeAsyncIterator()
            await server.state.expireAccessTokens(of: .boleto)

            // When a request is rejected, refreshed and replayed, then a business error follows
            _ = try await client.send(Self.userRequest(9))
            _ = await failure { try await client.send(APIRequest<EmptyResponse>(.post, "/boleto/travels")) }

            // Then the first failure published is the business error: the refresh was no error
            let first = await failures.next()
            #expect(first?.serverFailure?.code == 40013)
            let received = try await events.stop { !$0.isEmpty }
            #expect(received.count == 1)
            guard case .refreshed(let version, let trigger) = received.first else {
                Issue.record("expected a refreshed event, got \(received)")
                return
            }
            #expect(version == 1)
            #expect(trigger.endpoint == "GET /boleto/users/{id}")
            #expect(trigger.statusCode == 401)
        }
    }

    @Test func signingOutDuringARefreshIsNotUndoneByIt() async throws {
        try await SeedServer.run { server in
            // Given a request waiting on a slow refresh
            let (client, refresher) = SeedClients.boleto(server, tokens: await server.state.issueTokens(for: .boleto))
            await server.state.expireAccessTokens(of: .boleto)
            await server.state.setRefreshDelay(.milliseconds(300), for: .boleto)
            async let outcome = failure { try await client.send(Self.userRequest(1)) }
            try await Self.waitForARefresh(on: server)

            // When the user signs out before the refresh answers
            await refresher.setCredential(nil)

            // Then the refreshed tokens are dropped and the request fails for want of a credential
            guard case .missingCredential = await outcome?.sessionExpiry?.cause else {
                Issue.record("expected a missing credential")
                return
            }
            #expect(await refresher.currentCredential == nil)
            #expect(await server.state.refreshCount(of: .boleto) == 1)
        }
    }

    @Test func aCredentialSignedInDuringARefreshAndRejectedGetsARefreshOfItsOwn() async throws {
        try await SeedServer.run { server in
            // Given a slow refresh of an expired access token in flight
            let (client, refresher) = SeedClients.boleto(server, tokens: await server.state.issueTokens(for: .boleto))
            await server.state.expireAccessTokens(of: .boleto)
            await server.state.setRefreshDelay(.milliseconds(300), for: .boleto)
            async let first = failure { try await client.send(Self.userRequest(1)) }
            try await Self.waitForARefresh(on: server)

            // When the user signs in again meanwhile, and the new access token is rejected too
            let signedIn = await server.state.issueTokens(for: .boleto)
            await refresher.setCredential(BearerTokens(signedIn))
            await server.state.expireAccessTokens(of: .boleto)
            let second = try await client.send(Self.userRequest(3))

            // Then the new credential was refreshed (the first refresh's outcome was for the credential it replaced),
            // and the request replayed with the refreshed one
            #expect(second.context.attempt == 2)
            #expect(await server.state.refreshCount(of: .boleto) == 2)
            let refreshed = try #require(await refresher.currentCredential)
            #expect(refreshed.accessToken != signedIn.accessToken)
            _ = await first
        }
    }

    @Test func aRequestWithoutACredentialFailsWithoutReachingTheServer() async throws {
        try await SeedServer.run { server in
            let refresher = TokenRefresher(
                authenticator: BoletoAPI.Authenticator(baseURL: server.baseURL), credential: nil)
            let client = APIClient(baseURL: server.baseURL) {
                $0.middlewares = [AuthenticationMiddleware(refresher: refresher)]
            }

            let failure = await failure { try await client.send(Self.userRequest(1)) }

            guard case .missingCredential = failure?.sessionExpiry?.cause else {
                Issue.record("expected a missing credential, got \(String(describing: failure))")
                return
            }
            #expect(await server.state.refreshCount(of: .boleto) == 0)
        }
    }
}

/// A user middleware that holds a request back for the milliseconds named in its header, after signing and before
/// sending: it makes a request reach the server late.
struct HoldBackMiddleware: APIMiddleware {
    static let header = "X-Hold-Back-Milliseconds"

    func intercept<Value: Sendable>(
        _ request: URLRequest, context: RequestContext, next: APIMiddlewareNext<Value>
    ) async throws(RequestFailure) -> APIResponse<Value> {
        if context.attempt == 1, let delay = request.value(forHTTPHeaderField: Self.header).flatMap(Int.init) {
            try? await Task.sleep(for: .milliseconds(delay))
        }
        return try await next(request, context)
    }
}
