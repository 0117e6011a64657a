import Foundation
import Hummingbird

/// A loopback endpoint that takes Sentry envelopes (`POST /api/{project}/envelope/`), records each request and
/// answers as an ``IngestRecorder`` is told: outages, 429s, rate limits, 413s. It checks nothing and stores nothing;
/// it is the peer for tests and benchmarks of delivery, not an ingest (`faultline serve` is one).
package enum RecordingIngest {
    /// The largest body it reads: 20 MiB.
    static let maximumBodySize = 20 * 1024 * 1024

    /// Starts the endpoint on 127.0.0.1 at `port` (0, the default: a port the OS chooses), runs `body` with it, and
    /// stops it when `body` returns or throws.
    package static func run<T: Sendable>(
        port: Int = 0, recorder: IngestRecorder = IngestRecorder(),
        _ body: @Sendable (RunningRecordingIngest) async throws -> T
    ) async throws -> T {
        let router = Router()
        router.post("api/{project}/envelope") { request, _ -> Response in
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.canonicalName] = field.value }
            let bytes = (try? await request.body.collect(upTo: maximumBodySize)).map { Data($0.readableBytesView) }
            let reply = await recorder.record(path: request.uri.path, headers: headers, body: bytes ?? Data())
            try? await Task.sleep(for: reply.delay)
            var fields: HTTPFields = [:]
            for (name, value) in reply.headers {
                if let name = HTTPFields.Element.Name(name) { fields[name] = value }
            }
            fields[.contentType] = "application/json"
            return Response(
                status: HTTPResponse.Status(code: reply.status), headers: fields,
                body: ResponseBody(byteBuffer: ByteBuffer(string: "{}")))
        }
        return try await LoopbackServer.run(named: "recording ingest", router: router, port: port) {
            try await body(RunningRecordingIngest(baseURL: $0, recorder: recorder))
        }
    }
}

/// A ``RecordingIngest`` that is accepting requests.
package struct RunningRecordingIngest: Sendable {
    /// `http://127.0.0.1:<port>`.
    package let baseURL: URL
    /// What it received and how it answers.
    package let recorder: IngestRecorder

    /// The port it listens on.
    package var port: Int { baseURL.port ?? 0 }

    /// A DSN that points at it: `http://<publicKey>@127.0.0.1:<port>/<project>`.
    package func dsn(publicKey: String = "0123456789abcdef0123456789abcdef", project: Int = 1) -> String {
        "http://\(publicKey)@127.0.0.1:\(port)/\(project)"
    }
}
