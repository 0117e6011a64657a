import BenchmarkSupport
import Foundation

/// Batch times of every side, and the statistics the README reports. Each round runs one batch of each side back
/// to back, so ratios pair batches that ran under the same conditions.
struct Measurement {
    let requests: Int
    let bare: [Batch]
    /// A second, identical baseline: its ratio to ``bare`` is the harness's noise floor (an A/A comparison).
    let bareTwin: [Batch]
    let client: [Batch]
    /// Whether the client had a CaptureMiddleware first, counting request outcomes.
    let isCapturing: Bool
    /// The reporter's traces sample rate, when it records traces; `nil` propagates them only.
    let tracesSampleRate: Double?
    /// The client side, as the tables name it.
    var clientSide: String {
        guard isCapturing else { return "APIClient.send, default middleware" }
        let tracing = tracesSampleRate.map { "traces sampled at \($0)" } ?? "trace headers"
        return "APIClient.send, CaptureMiddleware (request outcomes, \(tracing)) + default middleware"
    }
    /// The benchmark's name in the results: `client-overhead`, `/capturing`, `/traced-1.0`.
    var name: String {
        guard isCapturing else { return "client-overhead" }
        return "client-overhead/capturing" + (tracesSampleRate.map { "/traced-\($0)" } ?? "")
    }
    /// The ratio to bare URLSession the client must stay under: 1.05 when every trace is recorded, 1.02 otherwise.
    var target: Double { (tracesSampleRate ?? 0) > 0 ? 1.05 : 1.02 }

    var clientRatios: [Double] { zip(client, bare).map { $0.wall / $1.wall } }
    var noiseRatios: [Double] { zip(bareTwin, bare).map { $0.wall / $1.wall } }
    /// The same ratios of the CPU the process spent during each batch: steadier than wall time, and it counts work
    /// off the request's path (the reporter's) that wall time sees only when it competes for the cores.
    var clientCPURatios: [Double] { zip(client, bare).map { $0.cpuSeconds / $1.cpuSeconds } }
    var noiseCPURatios: [Double] { zip(bareTwin, bare).map { $0.cpuSeconds / $1.cpuSeconds } }

    func microsecondsPerRequest(_ batch: Batch) -> Double {
        batch.wall.microseconds / Double(requests)
    }

    func cpuMicrosecondsPerRequest(_ batch: Batch) -> Double {
        batch.cpuSeconds * 1e6 / Double(requests)
    }

    func median(_ batches: [Batch]) -> String {
        String(format: "%.1f", Samples(batches.map(microsecondsPerRequest)).median)
    }

    func medianCPU(_ batches: [Batch]) -> String {
        String(format: "%.1f", Samples(batches.map(cpuMicrosecondsPerRequest)).median)
    }

    var table: String {
        """
        client-overhead: \(bare.count) rounds × \(requests) sequential GET /bench/item (1 KB JSON), sides interleaved
        | side | median µs/request | median ratio to bare | median CPU µs/request | median CPU ratio to bare |
        |---|---|---|---|---|
        | bare URLSession + JSONDecoder | \(median(bare)) | 1 | \(medianCPU(bare)) | 1 |
        | the same, a second instance (noise floor) | \(median(bareTwin)) | \(Samples(noiseRatios).summary()) \
        | \(medianCPU(bareTwin)) | \(Samples(noiseCPURatios).summary()) |
        | \(clientSide) | \(median(client)) | \(Samples(clientRatios).summary()) | \(medianCPU(client)) \
        | \(Samples(clientCPURatios).summary()) |
        target: client/bare ≤ \(target)
        """
    }

    /// The result `scripts/bench` gathers: the client's median per-round ratio to bare URLSession.
    var result: BenchmarkResult {
        let ratio = Samples(clientRatios).median
        let perRequest = { (batches: [Batch]) in Samples(batches.map(microsecondsPerRequest)).values("us") }
        return BenchmarkResult(
            name: name,
            what:
                "success-path overhead of \(isCapturing ? "client + capture + default middleware" : "client + default middleware"), 1 KB JSON GET",
            faultline: "\(median(client)) µs/request", peer: "bare URLSession \(median(bare)) µs/request",
            value: Samples(client.map(microsecondsPerRequest)).median,
            peerValue: Samples(bare.map(microsecondsPerRequest)).median,
            ratio: String(format: "%.3f (noise floor %.3f)", ratio, Samples(noiseRatios).median),
            target: "≤ \(target)", met: ratio <= target,
            sides: [
                .init("bare URLSession + JSONDecoder", perRequest(bare)),
                .init("bare, a second instance (noise floor)", perRequest(bareTwin)),
                .init(clientSide, perRequest(client)),
            ],
            parameters: [
                "rounds": "\(bare.count)", "requests per batch": "\(requests)",
                "median CPU ratio to bare": String(
                    format: "%.3f (noise floor %.3f)", Samples(clientCPURatios).median, Samples(noiseCPURatios).median),
            ])
    }
}
