import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension APIClient {
    /// How a client sends requests and classifies their outcomes. Every setting has a default.
    public struct Configuration: Sendable {
        /// The URL that request routes are relative to.
        public var baseURL: URL
        /// The session that transfers requests; by default an ephemeral session without a URL cache, so every
        /// outcome is the server's.
        ///
        /// On Linux, give a session of your own no URL cache either (`urlCache = nil` in its configuration):
        /// FoundationNetworking can stop the process when a request is cancelled while its session still looks for
        /// it in the cache.
        public var session: URLSession = Configuration.uncachedEphemeralSession()
        /// The middleware chain, outermost first; a ``RetryMiddleware`` with ``RetryPolicy/default`` by default.
        /// Put an ``AuthenticationMiddleware`` after the retry middleware so each retry is signed afresh.
        public var middlewares: [any APIMiddleware] = [RetryMiddleware()]
        /// How the server describes errors; ``ErrorContract/automatic`` by default.
        public var errorContract: ErrorContract = .automatic
        /// Categories of business codes; ``ServerCodeCatalog/empty`` by default.
        public var codeCatalog: ServerCodeCatalog = .empty
        /// Header fields sent with every request (a request's own headers win);
        /// `Accept: application/json` and a Faultline `User-Agent` by default.
        public var headers: [String: String] = [
            "Accept": "application/json", "User-Agent": "Faultline/\(FaultlineVersion.current)",
        ]
        /// The time to wait for a response; 60 seconds by default.
        public var timeout: Duration = .seconds(60)
        /// The decoder for response bodies.
        public var decoder = JSONDecoder()
        /// The encoder for request bodies.
        public var encoder = JSONEncoder()
        /// Error bodies larger than this are not parsed by the error contract, only previewed; 1 MiB by default.
        public var maximumErrorBodySize = 1 << 20
        /// The most bytes of an unrecognised error body kept in a ``BodyPreview``; 512 by default.
        public var bodyPreviewLimit = 512

        /// Creates a configuration with the defaults.
        public init(baseURL: URL) {
            self.baseURL = baseURL
        }

        /// An ephemeral session whose responses are never cached: a request cancelled as it starts is then safe on
        /// Linux, where FoundationNetworking looks in the cache on another queue and its cancellation can reach the
        /// task after the task has finished.
        private static func uncachedEphemeralSession() -> URLSession {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.urlCache = nil
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            return URLSession(configuration: configuration)
        }
    }
}
