import Faultline
import FaultlineLogReading
import FaultlineRecords
import FaultlineReporting
import FaultlineTestServer
import Foundation

/// Drives Faultline's client through the seed posts' scenarios against a running seed server and reports what each
/// request became: the demo behind `faultline-demo`.
package struct SeedDemo: Sendable {
    /// One line of the demo's report.
    package struct Line: Sendable {
        /// The scenario from `SCENARIOS.md`, such as `S4`.
        package let scenario: String
        /// What was done.
        package let action: String
        /// What came of it: a classified failure, or a summary of outcomes.
        package let outcome: String
    }

    private let server: RunningSeedServer
    private let reporter: Reporter?

    /// The scenarios, in the order ``run(report:beforeEach:)`` runs them.
    package static let scenarios = [
        "business codes", "failure inside a 200", "expiry on a 400", "concurrent rejections",
        "expired refresh token", "missing profile images", "proxy error page", "timeout", "Retry-After",
        "cancellation",
    ]

    /// The indices in ``scenarios`` during which the demo's ingest is down, so that events wait in the log: from
    /// "missing profile images" to "proxy error page".
    package static let outage =
        (scenarios.firstIndex(of: "missing profile images") ?? 0)..<(scenarios.firstIndex(of: "timeout") ?? 0)

    /// Creates a demo against a running seed server; with a `reporter`, every client captures its failures
    /// (``CaptureMiddleware``) and every refresher's events become breadcrumbs.
    package init(server: RunningSeedServer, reporter: Reporter? = nil) {
        self.server = server
        self.reporter = reporter
    }

    /// Runs every scenario in order, calling `beforeEach` with the index in ``scenarios`` of the next one, and
    /// hands each report line to `report` as it is ready.
    package func run(report: @Sendable (Line) -> Void, beforeEach: (Int) async -> Void = { _ in }) async {
        let steps: [(@Sendable (Line) -> Void) async -> Void] = [
            businessCodes, failureInsideA200, expiryOnA400, concurrentRejections, expiredRefreshToken,
            missingProfileImages, proxyErrorPage, timeout, retryAfter, cancellation,
        ]
        for (index, step) in steps.enumerated() {
            await beforeEach(index)
            await step(report)
        }
    }

    /// `middlewares`, after a capture middleware when the demo has a reporter.
    private func capturing(_ middlewares: [any APIMiddleware]) -> [any APIMiddleware] {
        guard let reporter else { return middlewares }
        return [CaptureMiddleware(reporter: reporter, baseURL: server.baseURL)] + middlewares
    }

    private func boletoClient() async -> (APIClient, TokenRefresher<BoletoAPI.Authenticator>) {
        let tokens = await server.state.issueTokens(for: .boleto)
        let refresher = TokenRefresher(
            authenticator: BoletoAPI.Authenticator(baseURL: server.baseURL),
            credential: BearerTokens(tokens))
        let client = BoletoAPI.client(
            baseURL: server.baseURL,
            middlewares: capturing([RetryMiddleware(), AuthenticationMiddleware(refresher: refresher)]))
        await reporter?.observe(refresher)
        return (client, refresher)
    }

    private func outcome<T>(_ send: () async throws(RequestFailure) -> APIResponse<T>) async -> String {
        do {
            let response = try await send()
            return "succeeded: HTTP \(response.statusCode) at attempt \(response.context.attempt)"
        } catch {
            return Self.describe(error)
        }
    }

    /// One classified failure, as the demo prints it.
    static func describe(_ failure: RequestFailure) -> String {
        switch failure.reason {
        case .server(let server): "server: \(server) [attempt \(failure.context.attempt)]"
        case .decoding(let decoding): "decoding: \(decoding)"
        case .transport(let transport): "transport: \(transport) [attempt \(failure.context.attempt)]"
        case .sessionExpired(let expiry): String(describing: expiry)
        case .cancelled: "cancelled"
        }
    }

    private func businessCodes(_ report: @Sendable (Line) -> Void) async {
        let (client, _) = await boletoClient()
        let overlap = await outcome { () async throws(RequestFailure) in
            try await client.send(APIRequest<EmptyResponse>(.post, "/boleto/travels", body: ["title": "제주"]))
        }
        report(Line(scenario: "S1", action: "POST /boleto/travels (overlapping dates)", outcome: overlap))
        let locked = await outcome { () async throws(RequestFailure) in
            try await client.send(
                APIRequest<EmptyResponse>(.patch, "/boleto/travels/{id}", pathParameters: ["id": "3"]))
        }
        report(Line(scenario: "S1", action: "PATCH /boleto/travels/3 (locked travel)", outcome: locked))
    }

    private func failureInsideA200(_ report: @Sendable (Line) -> Void) async {
        let (client, _) = await boletoClient()
        let sticker = await outcome { () async throws(RequestFailure) in
            try await client.send(
                APIRequest<BoletoAPI.Envelope<String>>(.get, "/boleto/stickers/{code}", pathParameters: ["code": "S1"]))
        }
        report(Line(scenario: "S1", action: "GET /boleto/stickers/S1 (success: false on a 200)", outcome: sticker))
    }

    private func expiryOnA400(_ report: @Sendable (Line) -> Void) async {
        let tokens = await server.state.issueTokens(for: .e05)
        let refresher = TokenRefresher(
            authenticator: E05API.Authenticator(baseURL: server.baseURL),
            credential: BearerTokens(tokens))
        let client = APIClient(baseURL: server.baseURL) {
            $0.errorContract = E05API.errorContract
            $0.middlewares = capturing([RetryMiddleware(), AuthenticationMiddleware(refresher: refresher)])
        }
        await reporter?.observe(refresher)
        await server.state.expireAccessTokens(of: .e05)
        let post = await outcome { () async throws(RequestFailure) in
            try await client.send(APIRequest<E05API.Post>(.get, "/e05/posts/{id}", pathParameters: ["id": "1"]))
        }
        let refreshes = await server.state.refreshCount(of: .e05)
        report(
            Line(
                scenario: "S3", action: "GET /e05/posts/1 with an expired token (400 E05)",
                outcome: "\(post); \(refreshes) refresh"))
    }

    private func concurrentRejections(_ report: @Sendable (Line) -> Void) async {
        let (client, _) = await boletoClient()
        await server.state.expireAccessTokens(of: .boleto)
        await server.state.setRefreshDelay(.milliseconds(200), for: .boleto)
        let before = await server.state.refreshCount(of: .boleto)
        let succeeded = await withTaskGroup(of: Bool.self) { group in
            for id in 1...20 {
                group.addTask {
                    let request = APIRequest<BoletoAPI.Envelope<BoletoAPI.User>>(
                        .get, "/boleto/users/{id}", pathParameters: ["id": String(id * 2 + 1)])
                    return (try? await client.send(request)) != nil
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        let refreshes = await server.state.refreshCount(of: .boleto) - before
        await server.state.setRefreshDelay(.zero, for: .boleto)
        report(
            Line(
                scenario: "S4", action: "20 concurrent requests, access token expired (401 40101)",
                outcome: "\(succeeded) of 20 succeeded after \(refreshes) refresh"))
    }

    private func expiredRefreshToken(_ report: @Sendable (Line) -> Void) async {
        let (client, refresher) = await boletoClient()
        let events = await refresher.sessionEvents()
        await server.state.expireAccessTokens(of: .boleto)
        await server.state.expireRefreshTokens(of: .boleto)
        let failures = await withTaskGroup(of: RequestFailure?.self) { group in
            for id in 1...10 {
                group.addTask {
                    do throws(RequestFailure) {
                        _ = try await client.send(
                            APIRequest<EmptyResponse>(
                                .get, "/boleto/users/{id}",
                                pathParameters: ["id": String(id)]))
                        return nil
                    } catch {
                        return error
                    }
                }
            }
            return await group.reduce(into: [RequestFailure]()) { if let failure = $1 { $0.append(failure) } }
        }
        var expiries = Set<UUID>()
        for failure in failures {
            if case .sessionExpired(let expiry) = failure.reason { expiries.insert(expiry.id) }
        }
        var iterator = events.makeAsyncIterator()
        let event = await iterator.next()
        let shown = if case .expired(let expiry, _) = event { String(describing: expiry) } else { "no event" }
        report(
            Line(
                scenario: "S5", action: "10 concurrent requests, refresh token expired too",
                outcome: "\(failures.count) failed with \(expiries.count) shared expiry; session event: \(shown)"))
    }

    private func missingProfileImages(_ report: @Sendable (Line) -> Void) async {
        let (client, _) = await boletoClient()
        var failures: [String: Int] = [:]
        let requests = 100
        for id in 1...requests {
            // Each profile is loaded by its own user, so that a capturing demo shows how many were affected.
            await RequestUser.$current.withValue(
                UserContext(id: "user-\(id)", segment: id % 3 == 0 ? "APPLE" : "KAKAO")
            ) {
                do throws(RequestFailure) {
                    _ = try await client.send(
                        APIRequest<BoletoAPI.Envelope<BoletoAPI.User>>(
                            .get, "/boleto/users/{id}",
                            pathParameters: ["id": String(id)]))
                } catch {
                    failures[Self.describe(error), default: 0] += 1
                }
            }
        }
        for (description, count) in failures.sorted(by: { $0.key < $1.key }) {
            report(
                Line(
                    scenario: "S7",
                    action: "GET /boleto/users/{id} for users 1–\(requests): \(count) of \(requests) requests failed"
                        + " (\(String(format: "%.1f", Double(count) * 100 / Double(requests))) %)",
                    outcome: description))
        }
    }

    private func proxyErrorPage(_ report: @Sendable (Line) -> Void) async {
        let client = APIClient(baseURL: server.baseURL) {
            $0.middlewares = capturing([RetryMiddleware(policy: .never)])
        }
        let page = await outcome { () async throws(RequestFailure) in
            try await client.send(APIRequest<EmptyResponse>(.get, "/proxy/users/{id}", pathParameters: ["id": "7"]))
        }
        report(Line(scenario: "S1", action: "GET /proxy/users/7 (HTML 502 from a proxy)", outcome: page))
        if let trace = await sharedTrace(of: "/proxy/users/7") { report(trace) }
    }

    private func timeout(_ report: @Sendable (Line) -> Void) async {
        let client = APIClient(baseURL: server.baseURL) {
            $0.middlewares = capturing([RetryMiddleware(policy: .never)])
        }
        let slow = await outcome { () async throws(RequestFailure) in
            try await client.send(
                APIRequest<EmptyResponse>(
                    .get, "/slow", query: [.init(name: "ms", value: "3000")],
                    timeout: .milliseconds(300)))
        }
        report(Line(scenario: "S10", action: "GET /slow with a 0.3 s timeout", outcome: slow))
    }

    /// What links the last request to `path` the server received to its event: the trace its `sentry-trace` header
    /// named, which the event's `trace` context names too, once the reporter wrote it; `nil` without a reporter.
    private func sharedTrace(of path: String) async -> Line? {
        guard let reporter else { return nil }
        await reporter.waitUntilWritten(timeout: .seconds(5))
        // A request the client gave up on may reach a busy server's handler after the client moved on.
        var received = await server.state.receivedTraces.last { $0.path == path }
        for _ in 0..<100 where received == nil {
            try? await Task.sleep(for: .milliseconds(50))
            received = await server.state.receivedTraces.last { $0.path == path }
        }
        guard let received else {
            return Line(scenario: "S1", action: "GET \(path)'s trace", outcome: "the seed server received none")
        }
        let log = (try? Data(contentsOf: LogLayout(reporter.options.logDirectory).activeLog)) ?? Data()
        let event = log.split(separator: UInt8(ascii: "\n")).lazy.reversed()
            .compactMap { try? SentryEvent(line: $0) }
            .first { $0.request?.url.flatMap(URL.init(string:))?.path == path }
        guard let event else {
            return Line(
                scenario: "S1", action: "the seed server received GET \(path) in trace \(received.traceID)",
                outcome: "no event of it is in the log yet")
        }
        let eventTrace = event.contexts["trace"]?.objectValue?["trace_id"]?.stringValue ?? "none"
        return Line(
            scenario: "S1", action: "the seed server received GET \(path) in trace \(received.traceID)",
            outcome: eventTrace == received.traceID
                ? "its event names the same trace: look it up in the backend's traces"
                : "its event names trace \(eventTrace), not the server's")
    }

    private func retryAfter(_ report: @Sendable (Line) -> Void) async {
        let client = APIClient(baseURL: server.baseURL) { $0.middlewares = capturing([RetryMiddleware()]) }
        let flaky = await outcome { () async throws(RequestFailure) in
            try await client.send(
                APIRequest<EmptyResponse>(
                    .get, "/flaky/{key}", pathParameters: ["key": "demo"],
                    query: [.init(name: "failures", value: "2"), .init(name: "retryAfter", value: "0.2")]))
        }
        report(Line(scenario: "S10", action: "GET /flaky/demo (503 twice, Retry-After 0.2)", outcome: flaky))
    }

    private func cancellation(_ report: @Sendable (Line) -> Void) async {
        let client = APIClient(baseURL: server.baseURL) { $0.middlewares = capturing([RetryMiddleware()]) }
        let task = Task {
            do throws(RequestFailure) {
                _ = try await client.send(
                    APIRequest<EmptyResponse>(.get, "/slow", query: [.init(name: "ms", value: "5000")]))
                return "succeeded"
            } catch {
                return Self.describe(error)
            }
        }
        try? await Task.sleep(for: .milliseconds(100))
        task.cancel()
        report(Line(scenario: "S11", action: "GET /slow, cancelled on sign-out", outcome: await task.value))
    }
}
