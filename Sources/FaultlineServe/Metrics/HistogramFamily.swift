import FaultlineRecords

/// One Prometheus histogram with its series, by label values: cumulative counts under each upper bound (`le`), the
/// count and an estimated sum, from the log-linear histograms of request outcomes. A duration counts under the first
/// bound at or above its bucket's middle, so within 1/32 of where it fell; the sum adds the buckets' middles. Past
/// ``IngestMetrics/maximumSeries`` label sets, new ones are counted under `other`.
///
/// It writes its own text: swift-prometheus's histograms, which the other metrics use, take one observation at a
/// time, while request outcomes arrive as the counts of a histogram's buckets, thousands of requests in one line.
struct HistogramFamily: Sendable {
    /// The upper bounds in seconds: Prometheus's defaults, from 5 ms to 10 s.
    static let bounds: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private struct Series: Sendable {
        /// Durations at or under each of ``bounds``, not yet cumulative; the last is past every bound (`+Inf`).
        var counts = [Int](repeating: 0, count: HistogramFamily.bounds.count + 1)
        var sum = 0.0
    }

    let name: String
    let help: String
    let labels: [String]
    private var series: [[String]: Series] = [:]

    init(name: String, help: String, labels: [String]) {
        self.name = name
        self.help = help
        self.labels = labels
    }

    /// Adds the durations of `histogram` to the series of `values`.
    mutating func add(_ values: [String], _ histogram: LatencyHistogram) {
        let key =
            series[values] != nil || series.count < IngestMetrics.maximumSeries
            ? values : Array(repeating: "other", count: labels.count)
        var added = series[key] ?? Series()
        for bucket in histogram.buckets {
            let seconds = histogram.middle(ofBucketFrom: bucket.lowerBound) / 1_000_000
            let index = Self.bounds.firstIndex { seconds <= $0 } ?? Self.bounds.count
            added.counts[index] += bucket.count
            added.sum += seconds * Double(bucket.count)
        }
        series[key] = added
    }

    /// The series in the text format; nothing before the first, as the other metrics.
    func exposition() -> String {
        guard !series.isEmpty else { return "" }
        var text = "# HELP \(name) \(help)\n# TYPE \(name) histogram\n"
        for (values, counted) in series.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            let pairs = zip(labels, values).map { "\($0)=\"\(Self.escaped($1))\"" }
            var cumulative = 0
            for (index, count) in counted.counts.enumerated() {
                cumulative += count
                let bound = index < Self.bounds.count ? String(Self.bounds[index]) : "+Inf"
                text += "\(name)_bucket{\((pairs + ["le=\"\(bound)\""]).joined(separator: ","))} \(cumulative)\n"
            }
            text += "\(name)_sum{\(pairs.joined(separator: ","))} \(counted.sum)\n"
            text += "\(name)_count{\(pairs.joined(separator: ","))} \(cumulative)\n"
        }
        return text
    }

    /// A label value as the text format wants it: backslash, double quote and line feed escaped.
    private static func escaped(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }
}
