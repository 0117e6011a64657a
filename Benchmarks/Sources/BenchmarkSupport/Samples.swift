/// Measured values and the order statistics the benchmarks report.
public struct Samples: Sendable {
    /// The values, sorted.
    public let sorted: [Double]

    /// Creates samples from `values` in any order.
    public init(_ values: some Sequence<Double>) {
        sorted = values.sorted()
    }

    /// The value below which a fraction `q` of the samples lie (nearest rank); NaN when there are none.
    public func quantile(_ q: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * q + 0.5))]
    }

    /// The median.
    public var median: Double { quantile(0.5) }

    /// `median (interquartile low–high)`, with `format` for each number.
    public func summary(_ format: String = "%.3f") -> String {
        String(format: "\(format) (interquartile \(format)–\(format))", median, quantile(0.25), quantile(0.75))
    }
}

extension Duration {
    /// The duration in microseconds.
    public var microseconds: Double {
        Double(components.seconds) * 1e6 + Double(components.attoseconds) / 1e12
    }

    /// The duration in seconds.
    public var seconds: Double { microseconds / 1e6 }
}
