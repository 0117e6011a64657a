import Prometheus

/// One metric of `faultline serve` with its series, by label values, counted in a swift-prometheus registry, which
/// writes the text format. Past ``IngestMetrics/maximumSeries`` label sets, new ones are counted under `other`.
struct MetricFamily: Sendable {
    /// A counter only grows; a gauge is a level that goes up and down.
    enum Kind: Sendable {
        case counter, gauge
    }

    private enum Series: Sendable {
        case counter(Counter)
        case gauge(Gauge)
    }

    let name: String
    let help: String
    let kind: Kind
    let labels: [String]
    private let registry: PrometheusCollectorRegistry
    private var series: [[String]: Series] = [:]

    /// A metric whose series `registry` writes.
    init(name: String, help: String, kind: Kind = .counter, labels: [String], in registry: PrometheusCollectorRegistry)
    {
        self.name = name
        self.help = help
        self.kind = kind
        self.labels = labels
        self.registry = registry
    }

    mutating func add(_ values: [String], _ count: Int = 1) {
        let key =
            series[values] != nil || series.count < IngestMetrics.maximumSeries
            ? values : Array(repeating: "other", count: labels.count)
        let added = series[key] ?? makeSeries(key)
        series[key] = added
        switch added {
        case .counter(let counter): counter.increment(by: Int64(count))
        case .gauge(let gauge): gauge.increment(by: Double(count))
        }
    }

    private func makeSeries(_ values: [String]) -> Series {
        let descriptor = MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
        let pairs = Array(zip(labels, values))
        switch kind {
        case .counter: return .counter(registry.makeCounter(descriptor: descriptor, labels: pairs))
        case .gauge: return .gauge(registry.makeGauge(descriptor: descriptor, labels: pairs))
        }
    }
}
