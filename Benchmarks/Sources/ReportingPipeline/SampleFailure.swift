import Faultline
import FaultlineReporting
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The failure every reporting benchmark captures: a Boleto-style `POST /v1/boletos` rejected with `409` and
/// business code `40901` in the error envelope, with a bearer token and a CPF in the request, classified as the
/// client classifies it, with the call site `APIClient.send` records, so that scrubbing, scope and the stack trace do
/// their real work when the event is assembled. The storm
/// benchmark captures it on several routes, one fingerprint each.
struct SampleFailure: Sendable {
    let failure: RequestFailure
    let request: URLRequest

    init(route: String = "/v1/boletos") {
        let url = URL(string: "https://api.boleto.example\(route)?order=8812&token=abc123")!
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue(
            "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiJ9.c2lnbmF0dXJl", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"amount": 1250, "cpf": "123.456.789-00", "due": "2026-12-01"}"#.utf8)
        let response = HTTPURLResponse(
            url: url, statusCode: 409, httpVersion: "HTTP/1.1",
            headerFields: ["Content-Type": "application/json", "X-Request-Id": "4f1c2a9e"])!
        let body = Data(#"{"success": false, "error": {"code": 40901, "message": "Boleto already issued"}}"#.utf8)
        let classifier = FailureClassifier(
            contract: .envelope(), catalog: ServerCodeCatalog(ranges: [40900...40999: .conflict]))
        var context = RequestContext(
            requestID: "4f1c2a9e", method: .post, route: route, url: url, allowsRetry: false,
            callSite: CallSite(fileID: "Boleto/CheckoutScreen.swift", function: "issueBoleto(for:)", line: 88))
        context.statusCode = 409
        failure = RequestFailure(.server(classifier.failure(in: response, body: body)!), context: context)
        self.request = request
    }

    /// Captures the failure as ``CaptureMiddleware`` does once the client has classified it.
    @discardableResult
    func capture(with reporter: Reporter) async -> String? {
        await reporter.capture(failure, request: request)
    }

    /// A reporter writing to `logDirectory` (and sending to `dsn`), with a user, tags and 100 breadcrumbs in scope.
    ///
    /// - Parameters:
    ///   - transport: What carries the envelopes, when not the default URLSession.
    ///   - fingerprintLimit: The reporter's limit per fingerprint; none by default, since the benchmarks of capture,
    ///     delivery and outages capture one failure over and over and measure every event through the pipeline.
    ///   - compression: The gzip levels of request bodies and of the log's rotated files, when not the defaults.
    ///   - attachStacktrace: Whether events carry the failure's call site as their stack trace, as by default.
    static func reporter(
        logDirectory: URL, dsn: String?, maxQueueSize: Int = 1000, transport: (any EnvelopeTransport)? = nil,
        fingerprintLimit: Reporter.FingerprintLimit? = nil, compression: CompressionLevels = .init(),
        attachStacktrace: Bool = true
    ) async throws -> Reporter {
        var options = Reporter.Options(logDirectory: logDirectory, environmentVariables: [:])
        options.attachStacktrace = attachStacktrace
        options.dsn = try dsn.map { try DSN($0) }
        options.maxQueueSize = maxQueueSize
        options.fingerprintLimit = fingerprintLimit
        options.release = "boleto-ios@4.2.0+310"
        options.transport = transport
        if let level = compression.log { options.logCompressionLevel = level }
        if let level = compression.transport { options.configureDelivery = { $0.compressionLevel = level } }
        let reporter = try Reporter(options: options)
        await reporter.setUser(UserContext(id: "42", email: "ana@example.com", segment: "pro"))
        await reporter.configureScope { $0.tags["app.flavor"] = "store" }
        for index in 0..<100 {
            await reporter.addBreadcrumb(
                Breadcrumb(type: "navigation", category: "screen", message: "screen \(index % 7)"))
        }
        return reporter
    }

    /// The gzip levels of a reporter's request bodies and of its log's rotated files; `nil` keeps the reporter's
    /// default.
    struct CompressionLevels {
        var transport: Int32?
        var log: Int32?
    }

    /// The event Faultline makes of the failure, as the JSON it logs and sends: what the baseline sends too.
    static func eventJSON() async throws -> Data {
        let logs = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-bench-\(UUID())")
        defer { try? FileManager.default.removeItem(at: logs) }
        let reporter = try await reporter(logDirectory: logs, dsn: nil)
        await SampleFailure().capture(with: reporter)
        await reporter.close()
        let log = try Data(contentsOf: logs.appendingPathComponent("events.jsonl"))
        return Data(log.prefix { $0 != UInt8(ascii: "\n") })
    }
}
