/// One metric with its series, by label values, in the Prometheus text format. Past
/// ``IngestMetrics/maximumSeries`` label sets, new ones are counted under `other`.
struct MetricFamily: Sendable {
    /// A counter only grows; a gauge is a level that goes up and down.
    enum Kind: String, Sendable {
        case counter, gauge
    }

    let name: String
    let help: String
    let kind: Kind
    let labels: [String]
    private var series: [[String]: Int] = [:]

    init(name: String, help: String, kind: Kind = .counter, labels: [String]) {
        self.name = name
        self.help = help
        self.kind = kind
        self.labels = labels
    }

    mutating func add(_ values: [String], _ count: Int = 1) {
        let key =
            series[values] != nil || series.count < IngestMetrics.maximumSeries
            ? values : Array(repeating: "other", count: labels.count)
        series[key, default: 0] += count
    }

    func exposition() -> String {
        var text = "# HELP \(name) \(help)\n# TYPE \(name) \(kind.rawValue)\n"
        for (values, count) in series.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            let pairs = zip(labels, values).map { "\($0)=\"\(Self.escaped($1))\"" }.joined(separator: ",")
            text += "\(name){\(pairs)} \(count)\n"
        }
        return text
    }

    /// A label value as the text format wants it: backslash, double quote and line feed escaped.
    static func escaped(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }
}
