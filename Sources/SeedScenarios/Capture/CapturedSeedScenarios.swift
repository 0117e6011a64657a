import Faultline
import FaultlineReporting
import FaultlineTestServer

/// The seed scenarios' failures, captured: a Boleto client with ``CaptureMiddleware`` (and no retries) sends the
/// requests of S1, S7, S10 and S5 to a running seed server one at a time, and its reporter logs (and, with a DSN,
/// sends) 8 events in 6 issues:
///
/// - `POST /boleto/travels` → 400 with business code 40013, for `KAKAO_kim` and for `APPLE_lee`;
/// - `PATCH /boleto/travels/{id}` → 403 with 40304;
/// - users 20 and 40, whose `profileImage` is `null` → two decoding failures at `data.profileImage`;
/// - a proxy's HTML 502; a timeout;
/// - a request after both tokens expired → one session-expired event.
///
/// The end-to-end tests deliver these to Bugsink, and the CLI's golden transcripts are made from their log.
package struct CapturedSeedScenarios: Sendable {
    /// The fingerprints of the events, grouped by issue: what an ingest that groups by fingerprint (Bugsink, Sentry)
    /// must make of them.
    package static let fingerprintsByIssue: Set<[[String]]> = [
        Array(repeating: ["server", "POST /boleto/travels", "400", "40013"], count: 2),
        [["server", "PATCH /boleto/travels/{id}", "403", "40304"]],
        Array(repeating: ["decoding", "Envelope<User>", "data.profileImage"], count: 2),
        [["server", "GET /proxy/users/{id}", "502", "-"]],
        [["transport", "timeout"]],
        [["session_expired", "refresh_failed"]],
    ]

    /// The reporter the failures are captured by.
    package let reporter: Reporter
    private let server: RunningSeedServer
    private let client: APIClient

    /// A Boleto client on `server` whose failures `reporter` captures; the scope's user is `KAKAO_kim`.
    package init(server: RunningSeedServer, reporter: Reporter) async {
        let tokens = await server.state.issueTokens(for: .boleto)
        let refresher = TokenRefresher(
            authenticator: BoletoAPI.Authenticator(baseURL: server.baseURL), credential: BearerTokens(tokens))
        client = BoletoAPI.client(
            baseURL: server.baseURL,
            middlewares: [
                CaptureMiddleware(reporter: reporter, baseURL: server.baseURL), RetryMiddleware(policy: .never),
                AuthenticationMiddleware(refresher: refresher),
            ])
        await reporter.observe(refresher)
        await reporter.setUser(UserContext(id: "KAKAO_kim", segment: "KAKAO"))
        self.reporter = reporter
        self.server = server
    }

    /// Sends the scenarios' requests in order, calling `beforeEach` before each one (a test moves its clock there).
    package func run(beforeEach: () async -> Void = {}) async {
        await beforeEach()
        _ = try? await client.send(APIRequest<EmptyResponse>(.post, "/boleto/travels"))
        await beforeEach()
        await RequestUser.$current.withValue(UserContext(id: "APPLE_lee", segment: "APPLE")) {
            _ = try? await client.send(APIRequest<EmptyResponse>(.post, "/boleto/travels"))
        }
        await beforeEach()
        _ = try? await client.send(
            APIRequest<EmptyResponse>(.patch, "/boleto/travels/{id}", pathParameters: ["id": "7"]))
        for id in [20, 40] {
            await beforeEach()
            _ = try? await client.send(Self.user(id))
        }
        await beforeEach()
        _ = try? await client.send(APIRequest<EmptyResponse>(.get, "/proxy/users/{id}", pathParameters: ["id": "1"]))
        await beforeEach()
        _ = try? await client.send(
            APIRequest<EmptyResponse>(
                .get, "/slow", query: [.init(name: "ms", value: "2000")], timeout: .milliseconds(200)))
        await beforeEach()
        await server.state.expireAccessTokens(of: .boleto)
        await server.state.expireRefreshTokens(of: .boleto)
        _ = try? await client.send(Self.user(3))
    }

    private static func user(_ id: Int) -> APIRequest<BoletoAPI.Envelope<BoletoAPI.User>> {
        APIRequest(.get, "/boleto/users/{id}", pathParameters: ["id": String(id)])
    }
}
