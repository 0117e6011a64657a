#if AsyncHTTPClient
    import AsyncHTTPClient
    import FaultlineReporting
    import NIOCore

    /// Posts envelopes with an AsyncHTTPClient of its own, on the shared event loops, over reused connections: the
    /// transport for server-side apps on Linux, where it costs about half the CPU per request of URLSession
    /// (FoundationNetworking over libcurl).
    ///
    /// ```swift
    /// var options = Reporter.Options(logDirectory: logs)
    /// options.dsn = try DSN("https://key@sentry.example.com/42")
    /// options.transport = AsyncHTTPClientEnvelopeTransport()
    /// let reporter = try Reporter(options: options)
    /// ```
    public final class AsyncHTTPClientEnvelopeTransport: EnvelopeTransport {
        /// The most bytes of a response body read; the uploader needs none of it, the rest is discarded.
        private static let maximumBodySize = 64 * 1024
        private let client: HTTPClient

        /// Creates a transport that keeps at most `maximumConnections` connections to the endpoint.
        public init(maximumConnections: Int = 4) {
            var configuration = HTTPClient.Configuration()
            configuration.connectionPool = .init(
                idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: maximumConnections)
            // A refused connection is a network error the uploader backs off from: retried here, it would hold the
            // request until its timeout and hide the outage from the statistics meanwhile.
            configuration.connectionPool.retryConnectionEstablishment = false
            client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        }

        deinit {
            client.shutdown { _ in }
        }

        public func send(_ request: EnvelopeRequest) async -> EnvelopeResponse? {
            var outgoing = HTTPClientRequest(url: request.url.absoluteString)
            outgoing.method = .POST
            for (name, value) in request.headerFields {
                outgoing.headers.add(name: name, value: value)
            }
            outgoing.body = .bytes(ByteBuffer(bytes: request.body))
            guard let response = try? await client.execute(outgoing, timeout: TimeAmount(request.timeout)) else {
                return nil
            }
            // The status is the answer: a body cut short or too long changes nothing.
            _ = try? await response.body.collect(upTo: Self.maximumBodySize)
            return EnvelopeResponse(
                statusCode: Int(response.status.code),
                rateLimits: response.headers.first(name: "X-Sentry-Rate-Limits"),
                retryAfter: response.headers.first(name: "Retry-After"),
                sentryError: response.headers.first(name: "X-Sentry-Error"))
        }

        /// Shuts the client down, which fails the requests in flight; later sends fail at once.
        public func cancelRequestsInFlight() async {
            try? await client.shutdown()
        }
    }
#endif
