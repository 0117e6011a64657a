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
        (Double(batch.components.seconds) * 1e6 + Double(batch.components.attoseconds) / 1e12) / Double(requests)
    }

    static func quantile(_ values: [Double], _ q: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * q + 0.5))]
    }

    static func summary(_ ratios: [Double]) -> String {
        String(
            format: "%.3f (interquartile %.3f–%.3f)", quantile(ratios, 0.5), quantile(ratios, 0.25),
            quantile(ratios, 0.75))
    }

    func median(_ batches: [Duration]) -> String {
        String(format: "%.1f", Self.quantile(batches.map(microsecondsPerRequest), 0.5))
    }

    var table: String {
        """
        client-overhead: \(bare.count) rounds × \(requests) sequential GET /bench/item (1 KB JSON), sides interleaved
        | side | median µs/request | median ratio to bare |
        |---|---|---|
        | bare URLSession + JSONDecoder | \(median(bare)) | 1 |
        | the same, a second instance (noise floor) | \(median(bareTwin)) | \(Self.summary(noiseRatios)) |
        | APIClient.send, default middleware | \(median(client)) | \(Self.summary(clientRatios)) |
        target: client/bare ≤ 1.02
        """
    }

    var json: Data {
        let object: [String: Any] = [
            "benchmark": "client-overhead", "requestsPerBatch": requests,
            "bareMicrosecondsPerRequest": bare.map(microsecondsPerRequest),
            "bareTwinMicrosecondsPerRequest": bareTwin.map(microsecondsPerRequest),
            "clientMicrosecondsPerRequest": client.map(microsecondsPerRequest),
            "medianClientRatio": Self.quantile(clientRatios, 0.5),
            "medianNoiseRatio": Self.quantile(noiseRatios, 0.5), "target": 1.02,
        ]
        return (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])) ?? Data()
    }
}
