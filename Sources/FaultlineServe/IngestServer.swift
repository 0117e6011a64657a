import Faultline
import FaultlineReporting
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// `faultline serve`: a Sentry-compatible ingest for one machine (development, CI, a small team). It takes
/// `POST /api/<project>/envelope/` and the legacy `POST /api/<project>/store/`, authenticated by `sentry_key`,
/// with `gzip`, `deflate` or `br` bodies decompressed up to a limit, and writes accepted events to the local log
/// format, so that every `faultline` command reads them. `GET /health` answers `ok`, `GET /version` the release as
/// JSON (`{"name":"faultline","version":"0.1.0"}`), and `GET /metrics` gives
/// ``IngestMetrics`` in the Prometheus text format.
///
/// Refusals say why in `X-Sentry-Error`: 400 for a malformed body, 401 without a key, 403 for a wrong key, 404 for
/// another project, 413 past a size limit, 429 past the optional rate limit (with `Retry-After` and
/// `X-Sentry-Rate-Limits`). Nothing of a refused request is stored.
public enum IngestServer {
    /// Runs the ingest until the task is cancelled or, with `handlesSignals`, until SIGTERM or SIGINT. Either way it
    /// shuts down gracefully: it stops accepting connections, answers the requests in flight, then closes the log,
    /// so that nothing accepted is lost.
    ///
    /// - Parameter onStart: Called with the port it listens on, once it accepts connections.
    public static func run(
        _ configuration: IngestConfiguration, handlesSignals: Bool = false,
        onStart: @escaping @Sendable (Int) -> Void = { _ in }
    ) async throws {
        let store = try IngestStore(
            logDirectory: configuration.logDirectory, eventsPerMinute: configuration.eventsPerMinute)
        var logger = Logger(label: "faultline-serve")
        logger.logLevel = .warning
        let application = Application(
            router: router(configuration, store: store),
            configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port)),
            onServerRunning: { channel in onStart(channel.localAddress?.port ?? configuration.port) },
            logger: logger)
        let services = ServiceGroup(
            services: [application], gracefulShutdownSignals: handlesSignals ? [.sigterm, .sigint] : [],
            logger: logger)
        // Unstructured, so that cancelling the caller shuts the server down gracefully instead of cancelling its
        // connections.
        let running = Task { try await services.run() }
        do {
            try await withTaskCancellationHandler {
                try await running.value
            } onCancel: {
                Task { await services.triggerGracefulShutdown() }
            }
        } catch {
            try? await store.close()
            throw ListenFailure(error, host: configuration.host, port: configuration.port) ?? error
        }
        try await store.close()
    }

    private static func router(_ configuration: IngestConfiguration, store: IngestStore) -> Router<IngestRequestContext>
    {
        let router = Router(context: IngestRequestContext.self)
        router.get("health") { _, _ in "ok\n" }
        router.get("version") { _, _ -> Response in
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody(
                    byteBuffer: ByteBuffer(
                        string: #"{"name":"faultline","version":"\#(FaultlineVersion.current)"}"# + "\n")))
        }
        router.get("metrics") { _, _ -> Response in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: await store.exposition())))
        }
        for kind in ["envelope", "store"] {
            router.post("api/{project}/\(kind)") { request, context -> Response in
                let started = ContinuousClock.now
                let (response, outcome) = await handle(
                    request, context: context, isEnvelope: kind == "envelope", configuration, store)
                configuration.accessLog?(
                    AccessLogLine(
                        request: request, client: context.remoteAddress, status: response.status.code,
                        outcome: outcome, duration: .now - started
                    ).text)
                return response
            }
            router.get("api/{project}/\(kind)") { request, context -> Response in
                let reason = "the \(kind) endpoint takes POST"
                configuration.accessLog?(
                    AccessLogLine(
                        request: request, client: context.remoteAddress, status: 405, outcome: reason, duration: .zero
                    ).text)
                return Response(
                    status: .methodNotAllowed, headers: [.allow: "POST", .sentryError: reason],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"detail":"\#(reason)"}"#)))
            }
        }
        return router
    }

    /// The answer to an envelope or store request, and what became of it in a few words for the access log.
    private static func handle(
        _ request: Request, context: IngestRequestContext, isEnvelope: Bool, _ configuration: IngestConfiguration,
        _ store: IngestStore
    ) async -> (Response, outcome: String) {
        do throws(IngestRequest.Refusal) {
            guard context.parameters.get("project") == configuration.projectID else {
                throw IngestRequest.Refusal(status: 404, reason: "unknown project")
            }
            let key =
                SentryAuth.key(inHeader: request.headers[.sentryAuth])
                ?? SentryAuth.key(inHeader: request.headers[.authorization])
                ?? SentryAuth.key(inQuery: request.uri.query)
            if let key, key != configuration.publicKey {
                throw IngestRequest.Refusal(status: 403, reason: "unknown sentry_key")
            }
            let body = try await Self.body(of: request, configuration)
            let ingest =
                isEnvelope
                ? try IngestRequest(envelope: body, key: key, configuration: configuration)
                : try IngestRequest(storeBody: body, key: key, configuration: configuration)
            if let wait = await store.admit(ingest.events.count) {
                let seconds = Int(wait.components.seconds) + 1
                throw IngestRequest.Refusal(
                    status: 429, reason: "over \(configuration.eventsPerMinute ?? 0) events a minute",
                    retryAfter: seconds)
            }
            let stored: Int
            do {
                stored = try await store.store(ingest.events)
            } catch {
                throw IngestRequest.Refusal(status: 503, reason: "the log could not be written: \(error)")
            }
            if !ingest.discards.isEmpty { await store.countDiscards(ingest.discards) }
            await store.countAnswer(status: 200)
            let answer = ingest.responseID.map { #"{"id":"\#($0)"}"# } ?? "{}"
            let duplicates = ingest.events.count - stored
            return (
                Response(
                    status: .ok, headers: [.contentType: "application/json"],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: answer))),
                "stored \(stored) event\(stored == 1 ? "" : "s")"
                    + (duplicates > 0 ? ", \(duplicates) already stored" : "")
            )
        } catch {
            await store.countAnswer(status: error.status)
            var headers: HTTPFields = [.contentType: "application/json", .sentryError: error.reason]
            if let retryAfter = error.retryAfter {
                headers[.retryAfter] = String(retryAfter)
                headers[.sentryRateLimits] = "\(retryAfter):error:key"
            }
            let detail = (try? JSONEncoder().encode(["detail": error.reason])).map {
                String(decoding: $0, as: UTF8.self)
            }
            return (
                Response(
                    status: HTTPResponse.Status(code: error.status), headers: headers,
                    body: ResponseBody(byteBuffer: ByteBuffer(string: detail ?? "{}"))),
                error.reason
            )
        }
    }

    /// The request's body, decompressed; refused past the size limits or when it cannot be decompressed.
    private static func body(of request: Request, _ configuration: IngestConfiguration) async throws(IngestRequest
        .Refusal) -> Data
    {
        let limit = configuration.maximumRequestSize
        let compressed: Data
        do {
            compressed = Data(try await request.body.collect(upTo: limit).readableBytesView)
        } catch is NIOTooManyBytesError {
            throw IngestRequest.Refusal(status: 413, reason: "the request body is over \(limit) bytes")
        } catch {
            throw IngestRequest.Refusal(
                status: IngestRequest.Refusal.clientClosedRequest, reason: "the client closed the connection mid-body")
        }
        do throws(BodyDecodingError) {
            return try BodyDecoding.decode(
                compressed, encoding: request.headers[.contentEncoding], maximumSize: limit)
        } catch {
            if case .tooLarge = error { throw IngestRequest.Refusal(status: 413, reason: error.description) }
            throw IngestRequest.Refusal(status: 400, reason: error.description)
        }
    }
}

extension HTTPFields.Element.Name {
    fileprivate static let sentryAuth = Self("X-Sentry-Auth")!
    fileprivate static let sentryError = Self("X-Sentry-Error")!
    fileprivate static let sentryRateLimits = Self("X-Sentry-Rate-Limits")!
    fileprivate static let allow = Self("Allow")!
}
