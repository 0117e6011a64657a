import ArgumentParser
import BenchmarkSupport
import Faultline
import FaultlineReporting
import FaultlineTestServer
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Success-path overhead of Faultline's client with its default middleware over bare URLSession: the same 1 KB JSON
/// GET on loopback, decoded into the same type, in interleaved rounds so that drift on a noisy machine hits both sides.
@main
struct ClientOverhead: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "client-overhead",
        abstract: "Compare APIClient.send with bare URLSession.data(for:) + JSONDecoder on a 1 KB JSON GET.")

    @Option(help: "Interleaved rounds; each runs one batch of each side.")
    var rounds = 400

    @Option(help: "Sequential requests per batch.")
    var requests = 100

    @Option(help: "Write the results as JSON to this file.")
    var json: String?

    @Flag(help: "Run the client without middleware, to separate the chain's cost from the rest.")
    var withoutMiddleware = false

    @Flag(
        help: """
            Put a CaptureMiddleware first, whose reporter (no DSN) counts every request's outcome and duration \
            (Reporter.Options.recordsRequestOutcomes), starts its span, sends its trace headers and adds its \
            breadcrumb.
            """)
    var capturing = false

    @Flag(help: "With --capturing, turn request outcomes off (Reporter.Options.recordsRequestOutcomes = false).")
    var withoutOutcomes = false

    @Option(
        help: """
            With --capturing, record traces at this rate (Reporter.Options.tracesSampleRate): 0 decides and propagates \
            every trace and records none, 1 records every request as a transaction in the transactions' log. Without \
            it, traces are propagated, their sampling left undecided.
            """)
    var tracesSampleRate: Double?

    @Flag(help: "With --capturing, send no trace headers (Reporter.Options.tracePropagationTargets = []).")
    var withoutTraceHeaders = false

    @Flag(
        help: """
            Have bare URLSession send three trace headers of the client's lengths too, fixed: what sending them costs \
            URLSession, curl and the server, apart from what making them costs the client.
            """)
    var bareWithTraceHeaders = false

    func run() async throws {
        let rounds = rounds
        let requests = requests
        let withoutMiddleware = withoutMiddleware
        let logs = FileManager.default.temporaryDirectory.appendingPathComponent("client-overhead-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: logs) }
        var options = Reporter.Options(logDirectory: logs)
        options.recordsRequestOutcomes = !withoutOutcomes
        options.tracesSampleRate = tracesSampleRate
        if withoutTraceHeaders { options.tracePropagationTargets = [] }
        let reporter = capturing ? try Reporter(options: options) : nil
        let result = try await SeedServer.run { server in
            // The client's default session: ephemeral, without a URL cache, as the bare session below.
            let client = APIClient(baseURL: server.baseURL) {
                if withoutMiddleware { $0.middlewares = [] }
                if let reporter {
                    $0.middlewares.insert(CaptureMiddleware(reporter: reporter, baseURL: server.baseURL), at: 0)
                }
            }
            let bare = BareURLSession(
                url: server.baseURL.appendingPathComponent("bench/item"),
                headers: client.configuration.headers.merging(bareTraceHeaders) { $1 })
            let request = APIRequest<BenchItem>(.get, "/bench/item")

            let bareTwin = BareURLSession(url: bare.url, headers: bare.headers)
            let sides: [() async throws -> Batch] = [
                { try await bare.batch(requests) },
                { try await bareTwin.batch(requests) },
                { try await Self.batch(requests) { _ = try await client.send(request) } },
            ]
            for side in sides { _ = try await side() }
            var times: [[Batch]] = Array(repeating: [], count: sides.count)
            for round in 0..<rounds {
                // Rotate the order so that no side always runs first or last.
                for offset in 0..<sides.count {
                    let index = (round + offset) % sides.count
                    times[index].append(try await sides[index]())
                }
            }
            return Measurement(
                requests: requests, bare: times[0], bareTwin: times[1], client: times[2], isCapturing: reporter != nil,
                tracesSampleRate: tracesSampleRate)
        }
        await reporter?.close()
        print(result.table)
        try BenchmarkResult.write([result.result], to: json)
    }

    /// Trace headers of the lengths the client sends, for ``bareWithTraceHeaders``.
    private var bareTraceHeaders: [String: String] {
        guard bareWithTraceHeaders else { return [:] }
        let trace = "771a43a4192642f0b136d5159a501700"
        return [
            "sentry-trace": "\(trace)-b7ad6b7169203331",
            "baggage": "sentry-trace_id=\(trace),sentry-release=ClientOverhead,sentry-environment=production",
            "traceparent": "00-\(trace)-b7ad6b7169203331-00",
        ]
    }

    static func batch(_ count: Int, _ body: () async throws -> Void) async throws -> Batch {
        let clock = ContinuousClock()
        let cpu = ProcessCPU.ownSeconds
        let start = clock.now
        for _ in 0..<count { try await body() }
        return Batch(wall: clock.now - start, cpuSeconds: ProcessCPU.ownSeconds - cpu)
    }
}

/// The body of `/bench/item`.
struct BenchItem: Decodable, Sendable {
    let id: Int
    let name: String
    let email: String
    let active: Bool
    let score: Double
    let tags: [String]
    let bio: String
}

/// The baseline: what an app does without Faultline, sending the same header fields.
struct BareURLSession {
    let url: URL
    let headers: [String: String]
    let session = Self.uncachedSession()
    let decoder = JSONDecoder()

    /// An ephemeral session without a URL cache, as the client's default session is (a cache look-up per request
    /// would be in the baseline alone).
    private static func uncachedSession() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return URLSession(configuration: configuration)
    }

    func batch(_ count: Int) async throws -> Batch {
        try await ClientOverhead.batch(count) {
            var request = URLRequest(url: url)
            // One assignment, the cheapest way to set them on Linux, where each `setValue` costs about 5 µs.
            request.allHTTPHeaderFields = headers
            let (data, response) = try await session.data(for: request)
            guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw URLError(.badServerResponse) }
            _ = try decoder.decode(BenchItem.self, from: data)
        }
    }
}
