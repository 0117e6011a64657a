import Faultline
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Turns failures, errors and messages into Sentry events with the current scope, and writes each to the local log
/// exactly as it is sent.
///
/// ```swift
/// let reporter = try Reporter(options: .init(logDirectory: logs))
/// await reporter.setUser(UserContext(id: "KAKAO_kim", segment: "KAKAO"))
/// let client = APIClient(baseURL: api) {
///     $0.middlewares = [CaptureMiddleware(reporter: reporter, baseURL: api), RetryMiddleware(),
///                       AuthenticationMiddleware(refresher: refresher)]
/// }
/// await reporter.observe(refresher)   // refreshes become breadcrumbs
/// ```
public actor Reporter {
    /// How events are captured and stored.
    public nonisolated let options: Options
    private var scope: Scope
    private let builder: FailureEventBuilder
    private let log: EventLog
    private var capturedExpiries: Set<UUID> = []
    private var observations: [Task<Void, Never>] = []
    private var counts = Statistics()

    /// What the reporter did since it started.
    public struct Statistics: Hashable, Sendable {
        /// Events written to the local log, by `error.kind`.
        public internal(set) var captured: [String: Int] = [:]
        /// Events `beforeSend` dropped.
        public internal(set) var droppedByBeforeSend = 0
        /// Events that could not be written, with the last reason.
        public internal(set) var failedWrites = 0
        public internal(set) var lastWriteError: String?
    }

    /// Creates a reporter; fails when the log directory cannot be created or opened.
    public init(options: Options) throws {
        self.options = options
        self.scope = Scope(maxBreadcrumbs: options.maxBreadcrumbs)
        self.builder = FailureEventBuilder(
            scrubber: Scrubber(rules: options.scrubRules), release: options.release, environment: options.environment)
        self.log = try EventLog(configuration: EventLog.Configuration(directory: options.logDirectory))
    }

    /// What the reporter did since it started.
    public var statistics: Statistics { counts }

    /// Changes the scope: tags, contexts, user.
    public func configureScope(_ change: @Sendable (inout Scope) -> Void) {
        change(&scope)
    }

    /// Sets the user every event carries (`nil` on sign-out).
    public func setUser(_ user: UserContext?) {
        scope.user = user
    }

    /// Adds a breadcrumb to the scope.
    public func addBreadcrumb(_ breadcrumb: Breadcrumb) {
        scope.addBreadcrumb(breadcrumb)
    }

    /// Captures a classified failure; returns the event id, or `nil` when nothing was captured (a cancellation, a
    /// session expiry already captured, or an event `beforeSend` dropped).
    ///
    /// - Parameters:
    ///   - failure: The failure.
    ///   - request: The request as sent, for its (scrubbed) headers and body.
    ///   - user: A user for this event only, instead of the scope's.
    @discardableResult
    public func capture(
        _ failure: RequestFailure, request: URLRequest? = nil, user: UserContext? = nil
    ) async -> String? {
        if case .sessionExpired(let expiry) = failure.reason, !capturedExpiries.insert(expiry.id).inserted {
            return nil
        }
        guard let event = builder.event(for: failure, request: request) else { return nil }
        return await submit(event, user: user)
    }

    /// Captures the outcome of a request made with another HTTP stack (Alamofire, Moya, your own), classified
    /// exactly as ``APIClient`` would: a response with a failure status or contract failure, a transport error, or
    /// a body that `decodingError` says did not decode. Returns the event id, or `nil` when it was a success or a
    /// cancellation.
    ///
    /// - Parameters:
    ///   - request: The request as sent.
    ///   - route: The route template, such as `/users/{id}`; the URL's path by default (templates group better).
    ///   - response: The HTTP response, if one arrived.
    ///   - body: The response body.
    ///   - error: The transport error, if the request got no response.
    ///   - decodingError: The error thrown while decoding a successful body into `decodedType`.
    ///   - classifier: The server's error contract and code catalogue.
    ///   - user: A user for this event only.
    @discardableResult
    public func capture(
        request: URLRequest, route: String? = nil, response: HTTPURLResponse?, body: Data?, error: (any Error)? = nil,
        decodingError: (any Error)? = nil, decodedType: Any.Type? = nil,
        classifier: FailureClassifier = FailureClassifier(), user: UserContext? = nil
    ) async -> String? {
        let url = request.url ?? URL(fileURLWithPath: "/")
        var context = RequestContext(
            requestID: RandomID.make(), method: HTTPMethod(rawValue: request.httpMethod ?? "GET"),
            route: route ?? url.path, url: url, allowsRetry: false)
        context.statusCode = response?.statusCode
        let reason: RequestFailure.Reason
        if let response {
            if let failure = classifier.failure(in: response, body: body ?? Data()) {
                reason = .server(failure)
            } else if let decodingError {
                reason = .decoding(DecodingFailure(decodingError, decoding: decodedType ?? Any.self))
            } else {
                return nil
            }
        } else {
            reason = FailureClassifier.reason(forTransportError: error ?? URLError(.unknown))
        }
        return await capture(RequestFailure(reason, context: context), request: request, user: user)
    }

    /// Captures any error; a ``RequestFailure`` is captured as one.
    @discardableResult
    public func capture(error: any Error, user: UserContext? = nil) async -> String? {
        if let failure = error as? RequestFailure { return await capture(failure, user: user) }
        var event = SentryEvent(level: .error)
        let type = String(reflecting: Swift.type(of: error))
        event.exception = .init([
            .init(type: type, value: String(describing: error), mechanism: .init(type: "generic", handled: true))
        ])
        event.tags["error.kind"] = "other"
        return await submit(event, user: user)
    }

    /// Captures a message.
    @discardableResult
    public func capture(
        message: String, level: SentryEvent.Level = .info, user: UserContext? = nil
    ) async -> String? {
        var event = SentryEvent(level: level)
        event.message = message
        event.tags["error.kind"] = "message"
        return await submit(event, user: user)
    }

    /// Records refreshes and expiries of `refresher` as breadcrumbs, until the reporter is closed. A refresh that
    /// succeeded is a breadcrumb, never an event.
    public func observe<A: Authenticator>(_ refresher: TokenRefresher<A>) async {
        let events = await refresher.sessionEvents()
        observations.append(
            Task { [weak self] in
                for await event in events { await self?.record(event) }
            })
    }

    /// Stops observing refreshers.
    public func close() {
        for observation in observations { observation.cancel() }
        observations.removeAll()
    }

    /// How a request the capture middleware saw ended.
    enum RequestOutcome {
        case status(Int)
        case failure(RequestFailure)
    }

    /// Records a request of the client as an `http` breadcrumb (scrubbed URL, method, route, status).
    func recordRequest(_ context: RequestContext, outcome: RequestOutcome) {
        var data: [String: JSONValue] = [
            "url": .string(builder.scrubber.url(context.url).url), "method": .string(context.method.rawValue),
            "http.route": .string(context.route), "request_id": .string(context.requestID),
        ]
        let level: Breadcrumb.Level
        switch outcome {
        case .status(let status):
            data["status_code"] = .int(status)
            level = status >= 500 ? .error : status >= 400 ? .warning : .info
        case .failure(let failure):
            if let status = failure.context.statusCode { data["status_code"] = .int(status) }
            data["reason"] = .string(FailureKind(failure.reason)?.rawValue ?? "cancelled")
            level = (failure.context.statusCode ?? 500) >= 500 ? .error : .warning
        }
        scope.addBreadcrumb(
            Breadcrumb(type: "http", category: "http", level: level, message: context.endpoint, data: data))
    }

    private func record(_ event: SessionEvent) {
        switch event {
        case .refreshed(let version, let trigger):
            scope.addBreadcrumb(
                Breadcrumb(
                    category: "auth.refresh", level: .info,
                    message: "Credential refreshed (version \(version)) after \(trigger.endpoint) was rejected"))
        case .expired(let expiry, let trigger):
            scope.addBreadcrumb(
                Breadcrumb(category: "auth.expired", level: .error, message: "\(trigger.endpoint): \(expiry)"))
        }
    }

    private func submit(_ event: SentryEvent, user: UserContext?) async -> String? {
        var event = event
        scope.apply(to: &event, user: user)
        if let beforeSend = options.beforeSend {
            guard let rewritten = beforeSend(event) else {
                counts.droppedByBeforeSend += 1
                return nil
            }
            event = rewritten
        }
        do {
            try await log.append(EventEncoder.encode(event))
            counts.captured[event.tags["error.kind"] ?? "other", default: 0] += 1
            return event.eventID
        } catch {
            counts.failedWrites += 1
            counts.lastWriteError = String(describing: error)
            return nil
        }
    }
}
