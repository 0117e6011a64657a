import Faultline
import FaultlineTestServer
import Foundation
import SeedScenarios
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An authenticator that knows when its access token expires has it refreshed before it is sent, once for every
/// request that finds it due (Alamofire's `requiresRefresh`), against the OAuth 2 server's `expires_in`.
@Suite struct ProactiveRefreshTests {
    static let profile = APIRequest<PlainAPI.Profile>(.get, "/plain/profile")

    /// A client of the plain server whose authenticator refreshes `margin` before the access token expires, telling
    /// the time from `clock` (a wall-clock date that starts now and moves only when the test advances it).
    static func client(
        _ server: RunningSeedServer, tokens: TokenPair, margin: Duration, clock: ManualClock = ManualClock()
    ) -> (client: APIClient, refresher: TokenRefresher<PlainAPI.Authenticator>) {
        let start = Date()
        let now: @Sendable () -> Date = { start + clock.now.offset / .seconds(1) }
        let refresher = TokenRefresher(
            authenticator: PlainAPI.Authenticator(baseURL: server.baseURL, refreshMargin: margin, now: now),
            credential: BearerTokens(
                accessToken: tokens.accessToken, refreshToken: tokens.refreshToken,
                expiresAt: start + tokens.expiresIn / .seconds(1)))
        let client = APIClient(baseURL: server.baseURL) {
            $0.middlewares = [AuthenticationMiddleware(refresher: refresher)]
        }
        return (client, refresher)
    }

    @Test func aTokenThatBecomesDueWhileRequestsRunIsRefreshedOnceBeforeTheServerRejectsIt() async throws {
        try await SeedServer.run { server in
            // Given an access token that lives an hour, an authenticator that refreshes it in its last 30 minutes, on
            // a clock the test moves, and a refresh slow enough for requests to pile up behind it
            await server.state.setAccessTokenLifetime(.seconds(3600), for: .plain)
            let tokens = await server.state.issueTokens(for: .plain)
            await server.state.setRefreshDelay(.milliseconds(300), for: .plain)
            let clock = ManualClock()
            let (client, refresher) = Self.client(server, tokens: tokens, margin: .seconds(1800), clock: clock)
            let deadline = ContinuousClock.now + patience

            // When 20 clients send requests until the token was refreshed, then two more each, and the clock moves
            // 31 minutes once 20 requests went out with the first token
            let attempts = try await withThrowingTaskGroup(of: [Int].self) { group in
                for _ in 1...20 {
                    group.addTask {
                        var attempts: [Int] = []
                        while await refresher.currentCredential?.accessToken == tokens.accessToken,
                            ContinuousClock.now < deadline
                        {
                            attempts.append(try await client.send(Self.profile).context.attempt)
                            try await Task.sleep(for: .milliseconds(50))
                        }
                        for _ in 1...2 { attempts.append(try await client.send(Self.profile).context.attempt) }
                        return attempts
                    }
                }
                try await wait(for: "20 requests with the first token") {
                    await server.state.requestCount(withAccessToken: tokens.accessToken) >= 20
                }
                clock.advance(by: .seconds(31 * 60))
                return try await group.reduce(into: [Int]()) { $0 += $1 }
            }

            // Then one refresh ran, before any rejection: no request reached the server with an expired token, none
            // was replayed, and the new token signed the requests after it
            #expect(await server.state.refreshCount(of: .plain) == 1)
            #expect(await server.state.expiredTokenRequestCount(of: .plain) == 0)
            #expect(attempts.count >= 60 && attempts.allSatisfy { $0 == 1 })
            let refreshed = try #require(await refresher.currentCredential)
            #expect(refreshed.accessToken != tokens.accessToken)
            #expect(await server.state.requestCount(withAccessToken: tokens.accessToken) >= 20)
            #expect(await server.state.requestCount(withAccessToken: refreshed.accessToken) >= 40)
        }
    }

    @Test func theSeedServerRefusesATokenOnceItsLifetimeEnds() async throws {
        try await SeedServer.run { server in
            // Given a token that lives half a second
            await server.state.setAccessTokenLifetime(.milliseconds(500), for: .plain)
            let tokens = await server.state.issueTokens(for: .plain)
            var stale = URLRequest(url: server.baseURL.appendingPathComponent("plain/profile"))
            stale.setValue("Bearer \(tokens.accessToken)", forHTTPHeaderField: "Authorization")
            let request = stale

            // Then the server refuses it once the half second has passed, as expired (not as a token it never issued)
            try await wait(for: "the token to expire") {
                (try await URLSession.shared.data(for: request).1 as? HTTPURLResponse)?.statusCode == 401
            }
            #expect(await server.state.expiredTokenRequestCount(of: .plain) >= 1)
        }
    }

    @Test func aFailedRefreshBeforeExpiryEndsEveryWaitingRequestInOneSessionExpiry() async throws {
        try await SeedServer.run { server in
            // Given an access token within the margin, and a refresh token the server no longer accepts
            await server.state.setAccessTokenLifetime(.seconds(30), for: .plain)
            let tokens = await server.state.issueTokens(for: .plain)
            await server.state.expireRefreshTokens(of: .plain)
            await server.state.setRefreshDelay(.milliseconds(200), for: .plain)
            let (client, refresher) = Self.client(server, tokens: tokens, margin: .seconds(60))
            let events = SessionEventRecorder(await refresher.sessionEvents())

            // When 20 requests run at once
            let failures = await withTaskGroup(of: RequestFailure?.self) { group in
                for _ in 1...20 { group.addTask { await failure { try await client.send(Self.profile) } } }
                return await group.reduce(into: [RequestFailure]()) { if let failure = $1 { $0.append(failure) } }
            }

            // Then they all fail with one expiry, after one refresh call and without reaching the server
            let expiries = failures.compactMap(\.sessionExpiry)
            #expect(expiries.count == 20)
            #expect(Set(expiries.map(\.id)).count == 1)
            #expect(await server.state.refreshCount(of: .plain) == 1)
            #expect(await server.state.requestCount(withAccessToken: tokens.accessToken) == 0)
            let received = try await events.stop { $0.contains(where: \.isExpired) }
            #expect(received.count(where: \.isExpired) == 1)
        }
    }

    @Test func aTokenARefreshJustReturnedIsUsedEvenWhenItIsWithinTheMargin() async throws {
        try await SeedServer.run { server in
            // Given a server whose tokens live an hour, and an authenticator whose margin is twice that: every token is
            // due as soon as it is issued, and none expires however long the requests take
            await server.state.setAccessTokenLifetime(.seconds(3600), for: .plain)
            let tokens = await server.state.issueTokens(for: .plain)
            let (client, refresher) = Self.client(server, tokens: tokens, margin: .seconds(7200))

            // When five requests are sent one after another
            var attempts: [Int] = []
            for _ in 1...5 { attempts.append(try await client.send(Self.profile).context.attempt) }

            // Then the first refreshed the token, and the token that refresh returned signed all five
            #expect(attempts == [1, 1, 1, 1, 1])
            #expect(await server.state.refreshCount(of: .plain) == 1)
            let refreshed = try #require(await refresher.currentCredential)
            #expect(await server.state.requestCount(withAccessToken: refreshed.accessToken) == 5)
            #expect(await server.state.requestCount(withAccessToken: tokens.accessToken) == 0)
        }
    }
}
