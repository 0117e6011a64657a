import FaultlineRecords

#if OpenAPIRuntime
    import Faultline
    import FaultlineLogReading
    import FaultlineOpenAPI
    import FaultlineReporting
    import FaultlineTestServer
    import Foundation
    import OpenAPIRuntime
    import OpenAPIURLSession
    import SeedScenarios
    import TestSupport
    import Testing

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// A client generated from `openapi.yaml` (the seed server's Boleto contract), with Faultline's middlewares, against
    /// the real seed server: failures are classified and captured as `APIClient`'s are, the generated client still gets
    /// its outputs, tokens are refreshed once and replayed, and a session expiry is one event.
    @Suite struct CaptureClientMiddlewareTests {
        static let routes = [
            "getUser": "/boleto/users/{id}", "createTravel": "/boleto/travels", "getSticker": "/boleto/stickers/{code}",
            "getUserThroughProxy": "/proxy/users/{id}", "getSlow": "/slow",
        ]
        static let classifier = FailureClassifier(contract: BoletoAPI.errorContract, catalog: BoletoAPI.codeCatalog)

        @Test func theGeneratedClientsFailuresAreCapturedLikeTheClients() async throws {
            let temporary = try TemporaryDirectory("openapi")
            defer { temporary.remove() }
            let logs = temporary.url
            let reporter = try Reporter(options: Reporter.Options(logDirectory: logs))
            let capture = CaptureClientMiddleware(reporter: reporter, classifier: Self.classifier, routes: Self.routes)
            let accessToken = try await SeedServer.run { server in
                let tokens = await server.state.issueTokens(for: .boleto)
                let refresher = TokenRefresher(
                    authenticator: BoletoAPI.Authenticator(baseURL: server.baseURL), credential: BearerTokens(tokens))
                await reporter.observe(refresher)
                let middlewares: [any ClientMiddleware] = [
                    capture,
                    AuthenticationClientMiddleware(
                        refresher: refresher, classifier: Self.classifier, routes: Self.routes),
                ]
                let client = Client(
                    serverURL: server.baseURL, transport: URLSessionTransport(), middlewares: middlewares)
                // the slow route's client gives up after a second (on Linux, a timeout under one second fails a request
                // with a body at once)
                let impatient = URLSessionConfiguration.ephemeral
                impatient.timeoutIntervalForRequest = 1
                let slowClient = Client(
                    serverURL: server.baseURL,
                    transport: URLSessionTransport(configuration: .init(session: URLSession(configuration: impatient))),
                    middlewares: middlewares)

                // A business code on a 400: the client still decodes its documented failure from the body passed on
                let created = try await client.createTravel(body: .json(.init(destination: "Lisbon")))
                guard case .default(statusCode: 400, let failure) = created else {
                    Issue.record("createTravel gave \(created)")
                    return tokens.accessToken
                }
                #expect(try failure.body.json.error?.code == 40013)
                // A failure inside a 200, and a proxy's HTML 502 that the document does not describe
                #expect(try await client.getSticker(path: .init(code: "ABC")).ok.body.json.success == false)
                let proxied = try await client.getUserThroughProxy(path: .init(id: 1))
                #expect({ if case .undocumented(statusCode: 502, _) = proxied { true } else { false } }())
                // A timeout, thrown by the runtime wrapped in ClientError
                await #expect(throws: ClientError.self) { try await slowClient.getSlow(query: .init(ms: 5000)) }
                // An expired access token: one refresh, the request replayed, no event
                await server.state.expireAccessTokens(of: .boleto)
                #expect(try await client.getUser(path: .init(id: 7)).ok.body.json.data.id == 7)
                #expect(await server.state.refreshCount(of: .boleto) == 1)
                // A null where the document promises a string, captured with its coding path around the call
                await #expect(throws: ClientError.self) {
                    try await capture.capturingDecodingFailures(of: "getUser") {
                        try await client.getUser(path: .init(id: 20))
                    }
                }
                // Both tokens expired: three requests end in one session expiry
                await server.state.expireAccessTokens(of: .boleto)
                await server.state.expireRefreshTokens(of: .boleto)
                await withTaskGroup(of: Void.self) { group in
                    for id in [1, 2, 3] { group.addTask { _ = try? await client.getUser(path: .init(id: id)) } }
                }
                return tokens.accessToken
            }
            #expect(await reporter.close(timeout: patience))

            // Then the log holds one event per failure, classified and tagged as the client's would be
            let text = try String(contentsOf: logs.appendingPathComponent("events.jsonl"), encoding: .utf8)
            let events = try text.split(separator: "\n").map {
                try SentryEvent(line: Data($0.utf8))
            }
            let tags = events.map(\.tags)
            #expect(
                tags.map { $0["error.kind"] } == [
                    "server", "server", "server", "transport", "decoding", "session_expired",
                ])
            #expect(tags[0]["http.route"] == "/boleto/travels" && tags[0]["server.code"] == "40013")
            #expect(tags[0]["http.status_code"] == "400" && tags[0]["http.method"] == "POST")
            #expect(tags[1]["server.code"] == "40903" && tags[1]["http.status_code"] == "200")
            #expect(tags[2]["http.route"] == "/proxy/users/{id}" && tags[2]["http.status_code"] == "502")
            #expect(tags[3]["transport.family"] == "timeout")
            #expect(tags[4]["decoding.path"] == "data.profileImage" && tags[4]["http.route"] == "/boleto/users/{id}")
            // the refresh is a breadcrumb, and requests are http breadcrumbs with their routes
            let crumbs = events[4].breadcrumbs?.values ?? []
            #expect(crumbs.contains { $0.category == "auth.refresh" })
            #expect(crumbs.contains { $0.type == "http" && $0.data?["http.route"] == .string("/boleto/travels") })
            // and the credential never reaches the log
            #expect(!text.contains(accessToken))
            #expect(
                events[0].request?.headers?["Authorization"] == nil
                    || events[0].request?.headers?["Authorization"] == "[Filtered]")

            // And every request is counted once by route and outcome: the decoding failure, found after the
            // middleware saw a 200, as a decoding failure, not also as a success
            let outcomes = try String(
                contentsOf: LogLayout(logs).requests.appendingPathComponent("outcomes.jsonl"), encoding: .utf8)
            var counted: [String: [String: Int]] = [:]
            for line in outcomes.split(separator: "\n") {
                for (route, tally) in try RequestOutcomes(line: Data(line.utf8)).routes {
                    counted["\(route.method) \(route.route)", default: [:]].merge(tally.outcomes, uniquingKeysWith: +)
                }
            }
            #expect(
                counted == [
                    "POST /boleto/travels": ["server.4xx": 1], "GET /boleto/stickers/{code}": ["server.2xx": 1],
                    "GET /proxy/users/{id}": ["server.5xx": 1], "GET /slow": ["transport": 1],
                    "GET /boleto/users/{id}": ["ok": 1, "decoding.2xx": 1, "session_expired.4xx": 3],
                ])
        }

        @Test func aDecodingFailureFoundAroundTheCallNamesTheSpanTheServerReceived() async throws {
            let temporary = try TemporaryDirectory("openapi-trace")
            defer { temporary.remove() }
            var options = Reporter.Options(logDirectory: temporary.url)
            options.tracesSampleRate = 1
            let reporter = try Reporter(options: options)
            let capture = CaptureClientMiddleware(reporter: reporter, classifier: Self.classifier, routes: Self.routes)
            let received = try await SeedServer.run { server in
                let tokens = await server.state.issueTokens(for: .boleto)
                let refresher = TokenRefresher(
                    authenticator: BoletoAPI.Authenticator(baseURL: server.baseURL), credential: BearerTokens(tokens))
                let client = Client(
                    serverURL: server.baseURL, transport: URLSessionTransport(),
                    middlewares: [
                        capture,
                        AuthenticationClientMiddleware(
                            refresher: refresher, classifier: Self.classifier, routes: Self.routes),
                    ])
                // When user 20, whose profile image is null, is loaded and the runtime fails to decode it
                await #expect(throws: ClientError.self) {
                    try await capture.capturingDecodingFailures(of: "getUser") {
                        try await client.getUser(path: .init(id: 20))
                    }
                }
                return try #require(await server.state.receivedTraces.first { $0.path == "/boleto/users/20" })
            }
            #expect(await reporter.close(timeout: patience))

            // Then its event names the trace and span the server received
            let text = try String(contentsOf: temporary.url.appendingPathComponent("events.jsonl"), encoding: .utf8)
            let events = try text.split(separator: "\n").map {
                try SentryEvent(line: Data($0.utf8))
            }
            let event = try #require(events.first { $0.tags["error.kind"] == "decoding" })
            let trace = try #require(event.contexts["trace"]?.objectValue)
            #expect(trace["trace_id"]?.stringValue == received.traceID)
            #expect(trace["span_id"]?.stringValue == received.spanID)
            // and that span was recorded once, as its response ended it
            let transactions = try String(
                contentsOf: LogLayout(temporary.url).requests.appendingPathComponent("transactions.jsonl"),
                encoding: .utf8)
            #expect(transactions.split(separator: "\n").filter { $0.contains(received.spanID) }.count == 1)
        }
    }
#endif
