#if OpenAPIRuntime
    import Faultline
    import Foundation
    import HTTPTypes
    import OpenAPIRuntime

    /// Signs each request of a generated client with the current credential of a `TokenRefresher` and, when the server
    /// rejects it, refreshes once for every waiting request (of this client and of any `APIClient` sharing the
    /// refresher) and replays the request with the new credential.
    ///
    /// A request whose body can be read only once is not replayed: the rejection is returned. A failed refresh throws
    /// `RequestFailure` with `RequestFailure.Reason.sessionExpired`, which ``CaptureClientMiddleware`` captures
    /// once for all the requests it ends. The authenticator's `apply` may set header fields; changes to the URL are not
    /// carried over.
    public struct AuthenticationClientMiddleware<A: Authenticator>: ClientMiddleware {
        /// The refresher that holds the credential.
        public let refresher: TokenRefresher<A>
        /// How a rejection is recognised: the refresher's authenticator reads the classified failure.
        public let classifier: FailureClassifier
        /// The route template of each operation id, for the session events' triggers.
        public let routes: [String: String]

        /// Creates the middleware.
        public init(
            refresher: TokenRefresher<A>, classifier: FailureClassifier = FailureClassifier(),
            routes: [String: String] = [:]
        ) {
            self.refresher = refresher
            self.classifier = classifier
            self.routes = routes
        }

        public func intercept(
            _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
            next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
        ) async throws -> (HTTPResponse, HTTPBody?) {
            let exchange = OpenAPIExchange(request, baseURL: baseURL, operationID: operationID, routes: routes)
            let signing: (credential: A.Credential, version: Int)
            do {
                signing = try await refresher.credentialForRequest(exchange.context)
            } catch {
                throw RequestFailure(.sessionExpired(error), context: exchange.context)
            }
            let (response, responseBody) = try await next(signed(exchange, with: signing.credential), body, baseURL)
            guard response.status.kind != .successful, body?.iterationBehavior != .single else {
                return (response, responseBody)
            }
            let read = try await ResponseBody.read(
                responseBody, of: response, limit: classifier.maximumErrorBodySize, successfulBodies: false)
            guard let data = read.data, let urlResponse = exchange.urlResponse(response),
                let failure = classifier.failure(in: urlResponse, body: data),
                refresher.authenticator.isCredentialRejected(failure)
            else { return (response, read.body) }
            var trigger = exchange.context
            trigger.statusCode = response.status.code
            let replacement: (credential: A.Credential, version: Int)
            do {
                replacement = try await refresher.credential(replacing: signing.version, trigger: trigger)
            } catch {
                throw RequestFailure(.sessionExpired(error), context: trigger)
            }
            return try await next(signed(exchange, with: replacement.credential), body, baseURL)
        }

        private func signed(_ exchange: OpenAPIExchange, with credential: A.Credential) -> HTTPRequest {
            exchange.request { refresher.authenticator.apply(credential, to: &$0) }
        }
    }
#endif
