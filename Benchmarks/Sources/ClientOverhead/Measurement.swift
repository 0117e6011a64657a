import BenchmarkSupport
import Foundation

/// Batch times of every side, and the statistics the README reports. Each round runs one batch of each side back
/// to back, so ratios pair batches that ran under the same conditions.
struct Measurement {
    let requests: Int
    let bare: [Duration]
    /// A second, identical baseline: its ratio to ``bare`` is the harness's noise floor (an A/A comparison).
    let bareTwin: [Duration]
    let client: [Duration]

    var clientRatios: [Double] { zip(client, bare).map { $0 / $1 } }
    var noiseRatios: [Double] { zip(bareTwin, bare).map { $0 / $1 } }

    func microsecondsPerRequest(_ batch: Duration) -> Double {
        batch.microseconds / Double(requests)
    }

    func median(_ batches: [Duration]) -> String {
        String(format: "%.1f", Samples(batches.map(microsecondsPerRequest)).median)
    }

    var table: String {
        """
        client-overhead: \(bare.count) rounds × \(requests) sequential GET /bench/item (1 KB JSON), sides interleaved
        | side | median µs/request | median ratio to bare |
        |---|---|---|
        | bare URLSession + JSONDecoder | \(median(bare)) | 1 |
        | the same, a second instance (noise floor) | \(median(bareTwin)) | \(Samples(noiseRatios).summary()) |
        | APIClient.send, default middleware | \(median(client)) | \(Samples(clientRatios).summary()) |
        target: client/bare ≤ 1.02
        """
    }

    var json: Data {
        let object: [String: Any] = [
            "benchmark": "client-overhead", "requestsPerBatch": requests,
            "bareMicrosecondsPerRequest": bare.map(microsecondsPerRequest),
            "bareTwinMicrosecondsPerRequest": bareTwin.map(microsecondsPerRequest),
            "clientMicrosecondsPerRequest": client.map(microsecondsPerRequest),
            "medianClientRatio": Samples(clientRatios).median,
            "medianNoiseRatio": Samples(noiseRatios).median, "target": 1.02,
        ]
        return (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])) ?? Data()
    }
}
