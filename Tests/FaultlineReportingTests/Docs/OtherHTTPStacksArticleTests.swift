import Faultline
import FaultlineLogReading
import FaultlineRecords
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
/// What an Alamofire interceptor and event monitor, a Moya plugin or any other stack calls around each request: the
/// request is counted by its route template with its duration, carries its trace, and a failure, classified with the
/// server's error contract and code catalogue, is captured, as `APIClient`'s capture middleware does.
actor FaultlineBridge {
    let reporter: Reporter
    let classifier: FailureClassifier
    let baseURL: URL
    private nonisolated let routes = RouteNotes()
    private var recordings: [UUID: RequestRecording] = [:]

    init(reporter: Reporter, classifier: FailureClassifier, baseURL: URL) {
        self.reporter = reporter
        self.classifier = classifier
        self.baseURL = baseURL
    }

    /// Notes the route template (`/users/{id}`) of request `id` as soon as the stack knows it, without waiting: it is
    /// there when the request starts.
    nonisolated func requestCreated(id: UUID, route: String) {
        routes.note(route, for: id)
    }

    /// The request `id` to send, with its trace's headers: its recording starts now. A request whose route was not
    /// noted is recorded by its URL's path.
    func requestStarting(_ request: URLRequest, id: UUID) -> URLRequest {
        let route = routes.take(id) ?? request.url?.path ?? "/"
        let recording = RequestRecording(reporter: reporter, request: request, route: route, baseURL: baseURL)
        recordings[id] = recording
        return recording.request
    }

    /// Records how request `id` ended: a response (a failure inside a 200 included, by the contract), a transport
    /// error, or a body that did not decode into `decodedType`.
    func requestFinished(
        id: UUID, response: HTTPURLResponse?, body: Data?, error: (any Error)?, decodingError: (any Error)? = nil,
        decodedType: Any.Type? = nil
    ) async {
        guard let recording = recordings.removeValue(forKey: id) else { return }
        await recording.finish(
            response: response, body: body, error: error, decodingError: decodingError, decodedType: decodedType,
            classifier: classifier)
    }
}

/// The route templates of requests not started yet, noted and taken under a lock.
final class RouteNotes: @unchecked Sendable {
    private let lock = NSLock()
    private var routes: [UUID: String] = [:]

    func note(_ route: String, for id: UUID) {
        lock.withLock { routes[id] = route }
    }

    func take(_ id: UUID) -> String? {
        lock.withLock { routes.removeValue(forKey: id) }
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
        try await SeedServer.run { server in
            let bridge = FaultlineBridge(reporter: reporter, classifier: Self.classifier, baseURL: server.baseURL)
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
            bridge.requestCreated(id: id, route: "/boleto/users/{id}")
            let replay = await bridge.requestStarting(try await signer.sign(request, id: id), id: id)
            let (_, replayed) = try await Self.send(replay)
            #expect(replayed?.statusCode == 200)
            #expect(await server.state.refreshCount(of: .boleto) == 1)
            // (a success, counted and not captured)
            await bridge.requestFinished(id: id, response: replayed, body: nil, error: nil)

            // The monitor's calls: a business code, a null where the model wants a string, a timeout
            let travelID = UUID()
            var travel = URLRequest(url: server.baseURL.appendingPathComponent("boleto/travels"))
            travel.httpMethod = "POST"
            bridge.requestCreated(id: travelID, route: "/boleto/travels")
            travel = await bridge.requestStarting(try await signer.sign(travel, id: travelID), id: travelID)
            let (travelBody, travelResponse) = try await Self.send(travel)
            await bridge.requestFinished(id: travelID, response: travelResponse, body: travelBody, error: nil)
            let userID = UUID()
            bridge.requestCreated(id: userID, route: "/boleto/users/{id}")
            let user20 = await bridge.requestStarting(
                try await signer.sign(URLRequest(url: users.appendingPathComponent("20")), id: userID), id: userID)
            let (userBody, userResponse) = try await Self.send(user20)
            let decodingError: (any Error)?
            do {
                _ = try JSONDecoder().decode(BoletoAPI.Envelope<BoletoAPI.User>.self, from: userBody)
                decodingError = nil
            } catch {
                decodingError = error
            }
            await bridge.requestFinished(
                id: userID, response: userResponse, body: userBody, error: nil, decodingError: decodingError,
                decodedType: BoletoAPI.Envelope<BoletoAPI.User>.self)
            let slowID = UUID()
            bridge.requestCreated(id: slowID, route: "/slow")
            var slow = URLRequest(url: try #require(URL(string: "\(server.baseURL.absoluteString)/slow?ms=5000")))
            slow.timeoutInterval = 1
            slow = await bridge.requestStarting(slow, id: slowID)
            do {
                _ = try await URLSession.shared.data(for: slow)
                Issue.record("/slow answered within a second")
            } catch {
                await bridge.requestFinished(id: slowID, response: nil, body: nil, error: error)
            }
            // and the server saw each request's trace
            #expect(await server.state.receivedTraces.count == 4)
        }
        #expect(await reporter.close(timeout: patience))

        let events = try String(contentsOf: logs.appendingPathComponent("events.jsonl"), encoding: .utf8)
            .split(separator: "\n").map { try SentryEvent(line: Data($0.utf8)) }
        #expect(events.map { $0.tags["error.kind"] } == ["server", "decoding", "transport"])
        #expect(events[0].tags["server.code"] == "40013" && events[0].tags["http.route"] == "/boleto/travels")
        #expect(events[1].tags["decoding.path"] == "data.profileImage")
        #expect(events[2].tags["transport.family"] == "timeout")
        // and every request is counted by its route template, the success too
        let outcomes = try Data(contentsOf: LogLayout(logs).requests.appendingPathComponent("outcomes.jsonl"))
            .split(separator: 0x0A).map { try RequestOutcomes(line: $0) }
        let routes = Set(outcomes.flatMap(\.routes.keys).map(\.route))
        #expect(routes == ["/boleto/users/{id}", "/boleto/travels", "/slow"])
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
