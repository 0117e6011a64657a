import Faultline
import FaultlineRecords
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
/// ``IngestMetrics`` in the Prometheus text format, with the forward queues' depth and counts.
///
/// With ``IngestConfiguration/forwarding`` it is also a relay in front of Sentry, GlitchTip or Bugsink: each accepted
/// envelope whose project and key have a route is queued, as received, for the route's upstream (see
/// ``ForwardConfiguration``), and answered 200 once it is in the local log and the queue.
///
/// Refusals say why in `X-Sentry-Error`: 400 for a malformed body, 401 without a key, 403 for a wrong key, 404 for
/// another project, 413 past a size limit, 429 past the optional rate limit (with `Retry-After` and
/// `X-Sentry-Rate-Limits`). Nothing of a refused request is stored.
package enum IngestServer {
    /// Runs the ingest until the task is cancelled or, with `handlesSignals`, until SIGTERM or SIGINT. Either way it
    /// shuts down gracefully: it stops accepting connections, answers the requests in flight, then closes the log,
    /// so that nothing accepted is lost.
    ///
    /// - Parameter onStart: Called with the port it listens on, once it accepts connections.
    package static func run(
        _ configuration: IngestConfiguration, handlesSignals: Bool = false,
        onStart: @escaping @Sendable (Int) -> Void = { _ in }
    ) async throws {
        // Held shared while serve runs, with or without a local log, so that `faultline forget` never rewrites the log
        // or the forward queues beside it.
        try FileManager.default.createDirectory(at: configuration.logDirectory, withIntermediateDirectories: true)
        let directoryLock = try LogDirectoryLock(sharing: configuration.logDirectory)
        defer { withExtendedLifetime(directoryLock) {} }
        let forwarder = try configuration.forwarding.map {
            try Forwarder($0, logDirectory: configuration.logDirectory)
        }
        let store: IngestStore
        do {
            store = try IngestStore(configuration)
        } catch {
            await forwarder?.close(timeout: .zero)
            throw error
        }
        await forwarder?.handleStrandedQueues(
            drain: configuration.forwarding?.drainsStrandedQueues ?? false, warn: configuration.warnings ?? { _ in })
        let handler = IngestHandler(configuration: configuration, store: store, forwarder: forwarder)
        let refusals = Task { [warnings = configuration.warnings] in
            guard let forwarder, let warnings else { return }
            if configuration.forwarding?.checksUpstreams == true { await forwarder.checkUpstreams(warn: warnings) }
            await forwarder.reportRefusedDSNs(to: warnings)
        }
        defer { refusals.cancel() }
        let expiry = Task {
            guard let age = configuration.maximumAge else { return }
            while !Task.isCancelled {
                await store.expire()
                try? await Task.sleep(for: Retention.checkInterval(of: age))
            }
        }
        defer { expiry.cancel() }
        var logger = Logger(label: "faultline-serve")
        logger.logLevel = .warning
        let application = Application(
            router: router(handler),
            server: .http1(configuration: .init(idleTimeout: TimeAmount(configuration.idleTimeout))),
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
            await forwarder?.close(timeout: .zero)
            try? await store.close()
            throw ListenFailure(error, host: configuration.host, port: configuration.port) ?? error
        }
        await forwarder?.close(timeout: Self.forwardingGrace)
        try await store.close()
    }

    /// How long the forward queues keep sending at shutdown; what is left is sent at the next start.
    static let forwardingGrace = Duration.seconds(2)

    private static func router(_ handler: IngestHandler) -> Router<IngestRequestContext> {
        let (configuration, store) = (handler.configuration, handler.store)
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
                body: ResponseBody(
                    byteBuffer: ByteBuffer(
                        string: await store.exposition() + (await handler.forwarder?.exposition() ?? ""))))
        }
        for kind in ["envelope", "store"] {
            router.post("api/{project}/\(kind)") { request, context -> Response in
                let started = ContinuousClock.now
                let (response, outcome) = await handler.handle(
                    request, context: context, isEnvelope: kind == "envelope")
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
}
