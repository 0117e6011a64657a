import Foundation

/// Batch times of both sides, and the statistics the README reports.
struct Measurement {
    let requests: Int
    let bare: [Duration]
    let client: [Duration]

    /// Per-round ratios client / bare; rounds pair batches run back to back.
    var ratios: [Double] { zip(client, bare).map { $0 / $1 } }

    func microsecondsPerRequest(_ batch: Duration) -> Double {
        Double(batch.components.seconds) * 1e6 / Double(requests) + Double(batch.components.attoseconds) / 1e12
            / Double(requests)
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    var bareMedian: Double { Self.median(bare.map(microsecondsPerRequest)) }
    var clientMedian: Double { Self.median(client.map(microsecondsPerRequest)) }
    var ratioMedian: Double { Self.median(ratios) }

    var table: String {
        let sortedRatios = ratios.sorted()
        let low = sortedRatios[sortedRatios.count / 4]
        let high = sortedRatios[sortedRatios.count * 3 / 4]
        return """
            client-overhead: \(bare.count) interleaved rounds × \(requests) sequential GET /bench/item (1 KB JSON)
            | side | median µs/request |
            |---|---|
            | bare URLSession + JSONDecoder | \(String(format: "%.1f", bareMedian)) |
            | APIClient.send, default middleware | \(String(format: "%.1f", clientMedian)) |
            ratio client/bare: median \(String(format: "%.3f", ratioMedian)) (interquartile \(String(format: "%.3f", low))–\(String(format: "%.3f", high))); target ≤ 1.02
            """
    }

    var json: Data {
        let object: [String: Any] = [
            "benchmark": "client-overhead", "requestsPerBatch": requests,
            "bareMicrosecondsPerRequest": bare.map(microsecondsPerRequest),
            "clientMicrosecondsPerRequest": client.map(microsecondsPerRequest),
            "medianRatio": ratioMedian, "target": 1.02,
        ]
        return (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])) ?? Data()
    }
}
