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

    /// A client of the plain server whose authenticator refreshes `margin` before the access token expires.
    static func client(
        _ server: RunningSeedServer, tokens: TokenPair, margin: Duration
    ) -> (client: APIClient, refresher: TokenRefresher<PlainAPI.Authenticator>) {
        let refresher = TokenRefresher(
            authenticator: PlainAPI.Authenticator(baseURL: server.baseURL, refreshMargin: margin),
            credential: BearerTokens(tokens))
        let client = APIClient(baseURL: server.baseURL) {
            $0.middlewares = [AuthenticationMiddleware(refresher: refresher)]
        }
        return (client, refresher)
    }

    @Test func aTokenThatBecomesDueWhileRequestsRunIsRefreshedOnceBeforeTheServerRejectsIt() async throws {
        try await SeedServer.run { server in
            // Given an access token that lives 30 seconds (times a sanitizer's slowdown), an authenticator that
            // refreshes it that long minus 10 seconds before expiry (so it is due 10 seconds after it was issued: long
            // enough for requests to be sent with it on a loaded machine, long before the server would refuse it), and
            // a refresh slow enough for requests to pile up behind it
            let lifetime = slowed(.seconds(30))
            await server.state.setAccessTokenLifetime(lifetime, for: .plain)
            let tokens = await server.state.issueTokens(for: .plain)
            // (the token the refresh returns lives an hour, so that it is not due again while the requests after it
            // run, however long a loaded machine takes over them)
            await server.state.setAccessTokenLifetime(.seconds(3600), for: .plain)
            await server.state.setRefreshDelay(.milliseconds(300), for: .plain)
            let (client, refresher) = Self.client(server, tokens: tokens, margin: lifetime - .seconds(10))
            let deadline = ContinuousClock.now + patience

            // When 20 clients send requests, 4 a second each, until the token was refreshed, then two more each
            let attempts = try await withThrowingTaskGroup(of: [Int].self) { group in
                for _ in 1...20 {
                    group.addTask {
                        var attempts: [Int] = []
                        while await refresher.currentCredential?.accessToken == tokens.accessToken,
                            ContinuousClock.now < deadline
                        {
                            attempts.append(try await client.send(Self.profile).context.attempt)
                            try await Task.sleep(for: .milliseconds(250))
                        }
                        for _ in 1...2 { attempts.append(try await client.send(Self.profile).context.attempt) }
                        return attempts
                    }
                }
                return try await group.reduce(into: [Int]()) { $0 += $1 }
            }

            // Then one refresh ran, before any rejection: no request reached the server with an expired token, none
            // was replayed, and the new token signed the requests after it
            #expect(await server.state.refreshCount(of: .plain) == 1)
            #expect(await server.state.expiredTokenRequestCount(of: .plain) == 0)
            #expect(attempts.count >= 40 && attempts.allSatisfy { $0 == 1 })
            let refreshed = try #require(await refresher.currentCredential)
            #expect(refreshed.accessToken != tokens.accessToken)
            #expect(await server.state.requestCount(withAccessToken: tokens.accessToken) > 0)
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
            // Given a server whose tokens live 30 seconds (times a sanitizer's slowdown), and an authenticator whose
            // margin is twice that: every token is due as soon as it is issued
            let lifetime = slowed(.seconds(30))
            await server.state.setAccessTokenLifetime(lifetime, for: .plain)
            let tokens = await server.state.issueTokens(for: .plain)
            let (client, refresher) = Self.client(server, tokens: tokens, margin: lifetime * 2)

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
