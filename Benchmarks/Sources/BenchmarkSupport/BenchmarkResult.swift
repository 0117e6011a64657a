import Foundation

/// What one benchmark measured, in the form every benchmark writes with `--json`: `scripts/bench` gathers them into
/// one run file with the machine it ran on, and `BenchmarkReport` prints them as one table and compares runs.
public struct BenchmarkResult: Codable, Sendable {
    /// One side's numbers: Faultline, a peer doing the same work, or a floor.
    public struct Side: Codable, Sendable {
        public var name: String
        /// Named values, such as `median_us` or `events_per_second`.
        public var values: [String: Double]

        public init(_ name: String, _ values: [String: Double]) {
            self.name = name
            self.values = values
        }
    }

    /// The benchmark and, when it reports several regimes, which one: `capture-latency/isolated`.
    public var name: String
    /// What was measured, in a few words.
    public var what: String
    /// Faultline's headline number, with its unit.
    public var faultline: String
    /// The peer's headline number on the same work in the same run, with its unit, when there is a peer.
    public var peer: String?
    /// Faultline's headline value, and the peer's, as numbers that later runs compare against.
    public var value: Double
    public var peerValue: Double?
    /// How Faultline compares with the peer, as the target states it (`24.1× faster`, `1.03`).
    public var ratio: String?
    public var target: String
    public var met: Bool
    /// Every side's numbers.
    public var sides: [Side]
    /// The options the benchmark ran with.
    public var parameters: [String: String]

    public init(
        name: String, what: String, faultline: String, peer: String? = nil, value: Double, peerValue: Double? = nil,
        ratio: String? = nil, target: String, met: Bool, sides: [Side], parameters: [String: String]
    ) {
        self.name = name
        self.what = what
        self.faultline = faultline
        self.peer = peer
        self.value = value
        self.peerValue = peerValue
        self.ratio = ratio
        self.target = target
        self.met = met
        self.sides = sides
        self.parameters = parameters
    }

    /// Writes `results` as JSON to `path`, when there is one.
    public static func write(_ results: [BenchmarkResult], to path: String?) throws {
        guard let path else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(results).write(to: URL(fileURLWithPath: path))
        print("results written to \(path)")
    }
}

extension Samples {
    /// The median, 90th and 99th percentiles, least and most, named with `unit`: `median_us`, `p90_us`, ….
    public func values(_ unit: String) -> [String: Double] {
        [
            "median_\(unit)": median, "p90_\(unit)": quantile(0.9), "p99_\(unit)": quantile(0.99),
            "min_\(unit)": quantile(0), "max_\(unit)": quantile(1),
        ]
    }
}
