import FaultlineReporting
import Foundation
import Hummingbird
import Logging

/// `faultline serve`: a Sentry-compatible ingest for one machine (development, CI, a small team). It takes
/// `POST /api/<project>/envelope/` and the legacy `POST /api/<project>/store/`, authenticated by `sentry_key`,
/// with `gzip`, `deflate` or `br` bodies decompressed up to a limit, and writes accepted events to the local log
/// format, so that every `faultline` command reads them. `GET /health` answers `ok`.
///
/// Refusals say why in `X-Sentry-Error`: 400 for a malformed body, 401 without a key, 403 for a wrong key, 404 for
/// another project, 413 past a size limit. Nothing of a refused request is stored.
public enum IngestServer {
    /// Runs the ingest until the task is cancelled or, with `handlesSignals`, until SIGTERM or SIGINT, then closes
    /// the log, so that nothing accepted is lost.
    ///
    /// - Parameter onStart: Called with the port it listens on, once it accepts connections.
    public static func run(
        _ configuration: IngestConfiguration, handlesSignals: Bool = false,
        onStart: @escaping @Sendable (Int) -> Void = { _ in }
    ) async throws {
        let store = try IngestStore(logDirectory: configuration.logDirectory)
        var logger = Logger(label: "faultline-serve")
        logger.logLevel = .warning
        let application = Application(
            router: router(configuration, store: store),
            configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port)),
            onServerRunning: { channel in onStart(channel.localAddress?.port ?? configuration.port) },
            logger: logger)
        do {
            if handlesSignals {
                try await application.runService()
            } else {
                try await application.runService(gracefulShutdownSignals: [])
            }
        } catch is CancellationError {}
        try await store.close()
    }

    private static func router(_ configuration: IngestConfiguration, store: IngestStore) -> Router<BasicRequestContext>
    {
        let router = Router()
        router.get("health") { _, _ in "ok\n" }
        for kind in ["envelope", "store"] {
            router.post("api/{project}/\(kind)") { request, context -> Response in
                await handle(request, context: context, isEnvelope: kind == "envelope", configuration, store)
            }
        }
        return router
    }

    private static func handle(
        _ request: Request, context: BasicRequestContext, isEnvelope: Bool, _ configuration: IngestConfiguration,
        _ store: IngestStore
    ) async -> Response {
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
            do {
                _ = try await store.store(ingest.events)
            } catch {
                throw IngestRequest.Refusal(status: 503, reason: "the log could not be written: \(error)")
            }
            if !ingest.discards.isEmpty { await store.countDiscards(ingest.discards) }
            let answer = ingest.responseID.map { #"{"id":"\#($0)"}"# } ?? "{}"
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: answer)))
        } catch {
            return Response(
                status: HTTPResponse.Status(code: error.status),
                headers: [.contentType: "application/json", .sentryError: error.reason],
                body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"detail":"\#(error.reason)"}"#)))
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
        } catch {
            throw IngestRequest.Refusal(status: 413, reason: "the request body is over \(limit) bytes")
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
}
