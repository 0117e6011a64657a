import Faultline
import FaultlineReporting
import FaultlineTestServer
import Foundation
import SeedScenarios
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// Article: begin
/// What an Alamofire `EventMonitor`, a Moya plugin or any other stack calls when a request finishes: the response is
/// classified with the server's error contract and code catalogue, and a failure is captured.
struct FaultlineBridge: Sendable {
    let reporter: Reporter
    let classifier: FailureClassifier

    /// Captures a finished request that failed: a transport error, a failed response (including a failure inside a
    /// 200, by the contract), or a body that did not decode into `decodedType`. Successes are not captured.
    func requestFinished(
        _ request: URLRequest, route: String, response: HTTPURLResponse?, body: Data?, error: (any Error)?,
        decodingError: (any Error)? = nil, decodedType: Any.Type? = nil
    ) async {
        await reporter.capture(
            request: request, route: route, response: response, body: body, error: error,
            decodingError: decodingError, decodedType: decodedType, classifier: classifier)
    }
}

/// Signs requests with a ``TokenRefresher`` shared with the app's other clients, and decides whether a rejected
/// request is retried: the heart of an Alamofire `RequestInterceptor`, which gives each request an id.
actor RefreshingSigner<A: Authenticator> {
    let refresher: TokenRefresher<A>
    let classifier: FailureClassifier
    private var versions: [UUID: Int] = [:]

    init(refresher: TokenRefresher<A>, classifier: FailureClassifier) {
        self.refresher = refresher
        self.classifier = classifier
    }

    /// The request signed with the current credential, whose version is kept for ``shouldRetry``.
    func sign(_ request: URLRequest, id: UUID) async throws -> URLRequest {
        guard let context = Self.context(of: request, id: id) else { throw URLError(.badURL) }
        let (credential, version) = try await refresher.credentialForRequest(context)
        versions[id] = version
        var signed = request
        refresher.authenticator.apply(credential, to: &signed)
        return signed
    }

    /// Whether to send the request again: the server rejected its credential, and a new one is ready. However many
    /// requests were rejected at once, one refresh runs; when it fails, the refresher's session events say so.
    func shouldRetry(id: UUID, request: URLRequest, response: HTTPURLResponse?, body: Data?) async -> Bool {
        guard let response, var trigger = Self.context(of: request, id: id),
            let version = versions.removeValue(forKey: id),
            let failure = classifier.failure(in: response, body: body ?? Data()),
            refresher.authenticator.isCredentialRejected(failure)
        else { return false }
        trigger.statusCode = response.statusCode
        return (try? await refresher.credential(replacing: version, trigger: trigger)) != nil
    }

    /// The request `id` as the refresher's session events name it.
    static func context(of request: URLRequest, id: UUID) -> RequestContext? {
        guard let url = request.url else { return nil }
        return RequestContext(
            requestID: id.uuidString.lowercased().replacingOccurrences(of: "-", with: ""),
            method: HTTPMethod(rawValue: request.httpMethod ?? "GET"), route: url.path, url: url, allowsRetry: true)
    }
}
// Article: end

/// The article "Alamofire, Moya and other stacks" shows this file's marked region verbatim, and the calls its
/// Alamofire and Moya glue makes work against the seed server through URLSession.
@Suite struct OtherHTTPStacksArticleTests {
    static let classifier = FailureClassifier(contract: BoletoAPI.errorContract, catalog: BoletoAPI.codeCatalog)

    @Test func theBridgeCapturesAndTheSignerRefreshesOnceAgainstTheSeedServer() async throws {
        let temporary = try TemporaryDirectory("stacks")
        defer { temporary.remove() }
        let logs = temporary.url
        let reporter = try Reporter(options: Reporter.Options(logDirectory: logs))
        let bridge = FaultlineBridge(reporter: reporter, classifier: Self.classifier)
        try await SeedServer.run { server in
            let tokens = await server.state.issueTokens(for: .boleto)
            let refresher = TokenRefresher(
                authenticator: BoletoAPI.Authenticator(baseURL: server.baseURL), credential: BearerTokens(tokens))
            let signer = RefreshingSigner(refresher: refresher, classifier: Self.classifier)
            let users = server.baseURL.appendingPathComponent("boleto/users")

            // An expired access token: the interceptor's retry refreshes once, and the request succeeds signed anew
            await server.state.expireAccessTokens(of: .boleto)
            let id = UUID()
            let request = URLRequest(url: users.appendingPathComponent("7"))
            let (rejectedBody, rejected) = try await Self.send(try await signer.sign(request, id: id))
            #expect(rejected?.statusCode == 401)
            #expect(await signer.shouldRetry(id: id, request: request, response: rejected, body: rejectedBody))
            let (_, replayed) = try await Self.send(try await signer.sign(request, id: id))
            #expect(replayed?.statusCode == 200)
            #expect(await server.state.refreshCount(of: .boleto) == 1)

            // The monitor's calls: a business code, a null where the model wants a string, a timeout
            var travel = try await signer.sign(
                URLRequest(url: server.baseURL.appendingPathComponent("boleto/travels")), id: UUID())
            travel.httpMethod = "POST"
            let (travelBody, travelResponse) = try await Self.send(travel)
            await bridge.requestFinished(
                travel, route: "/boleto/travels", response: travelResponse, body: travelBody, error: nil)
            let user20 = try await signer.sign(URLRequest(url: users.appendingPathComponent("20")), id: UUID())
            let (userBody, userResponse) = try await Self.send(user20)
            let decodingError: (any Error)?
            do {
                _ = try JSONDecoder().decode(BoletoAPI.Envelope<BoletoAPI.User>.self, from: userBody)
                decodingError = nil
            } catch {
                decodingError = error
            }
            await bridge.requestFinished(
                user20, route: "/boleto/users/{id}", response: userResponse, body: userBody, error: nil,
                decodingError: decodingError, decodedType: BoletoAPI.Envelope<BoletoAPI.User>.self)
            var slow = URLRequest(url: try #require(URL(string: "\(server.baseURL.absoluteString)/slow?ms=5000")))
            slow.timeoutInterval = 1
            do {
                _ = try await URLSession.shared.data(for: slow)
                Issue.record("/slow answered within a second")
            } catch {
                await bridge.requestFinished(slow, route: "/slow", response: nil, body: nil, error: error)
            }
            // and a success, which is not captured
            await bridge.requestFinished(
                request, route: "/boleto/users/{id}", response: replayed, body: nil, error: nil)
        }
        #expect(await reporter.close(timeout: patience))

        let events = try String(contentsOf: logs.appendingPathComponent("events.jsonl"), encoding: .utf8)
            .split(separator: "\n").map { try JSONDecoder().decode(SentryEvent.self, from: Data($0.utf8)) }
        #expect(events.map { $0.tags["error.kind"] } == ["server", "decoding", "transport"])
        #expect(events[0].tags["server.code"] == "40013" && events[0].tags["http.route"] == "/boleto/travels")
        #expect(events[1].tags["decoding.path"] == "data.profileImage")
        #expect(events[2].tags["transport.family"] == "timeout")
    }

    @Test func theArticleShowsThisFilesCodeVerbatim() throws {
        let source = try String(
            contentsOf: Repository.file("Tests/FaultlineReportingTests/Docs/OtherHTTPStacksArticleTests.swift"),
            encoding: .utf8)
        let article = try String(
            contentsOf: Repository.file("Sources/FaultlineReporting/FaultlineReporting.docc/OtherHTTPStacks.md"),
            encoding: .utf8)
        let code = try #require(
            source.components(separatedBy: "// Article: begin\n").last?.components(separatedBy: "// Article: end").first
        )

        #expect(article.contains("```swift\n\(code)```"))
    }

    /// Sends `request` through URLSession; returns the body and the response.
    private static func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse?) {
        let (data, response) = try await URLSession.shared.data(for: request)
        return (data, response as? HTTPURLResponse)
    }
}
