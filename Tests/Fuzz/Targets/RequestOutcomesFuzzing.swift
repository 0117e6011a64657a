import FaultlineRecords
import FaultlineTriage
import Foundation

/// Request outcomes as `faultline serve` reads them from any client's envelope item and `faultline routes` from a log
/// line: the routes view's running tallies count what the reader's value holds; what is read is written back and read
/// again to the same counts and durations (its times to the millisecond the log keeps), and what that writes is a
/// fixed point; percentiles never fall outside the buckets counted.
enum RequestOutcomesFuzzing {
    static func run(_ data: Data) throws(Disagreement) {
        // `faultline routes` adds a line to its running tallies from the same scan: it counts what the value holds.
        var tallies = OutcomeTallies(filter: RouteOutcomes.Filter())
        data.withUnsafeBytes { tallies.read($0.bindMemory(to: UInt8.self)) }
        guard let read = try? RequestOutcomes(line: data) else {
            try Disagreement.check(tallies.intervals == 0, "the routes view counts a line the reader refuses")
            return
        }
        let counted = tallies.counts()
        try Disagreement.check(
            tallies.intervals == 1 && counted.routes == read.routes.mapValues { [read.release: $0] }
                && counted.overflow == read.overflow,
            "the routes view counts the line otherwise than the reader")
        let line = read.line()
        try Disagreement.check(RequestOutcomes.isLine(line), "what it writes does not start as request outcomes")
        try Disagreement.check(!line.contains(0x0A), "what it writes is not one line")
        let again: RequestOutcomes
        do {
            again = try RequestOutcomes(line: line)
        } catch {
            throw Disagreement(description: "what it wrote cannot be read back: \(error)")
        }
        try Disagreement.check(
            again.id == read.id && again.release == read.release && again.environment == read.environment
                && again.routes == read.routes && again.overflow == read.overflow,
            "what it wrote reads back otherwise")
        try Disagreement.check(
            abs(again.start.timeIntervalSince(read.start)) < 0.001
                && abs(again.end.timeIntervalSince(read.end)) < 0.001,
            "its times moved by a millisecond or more")
        try Disagreement.check(again.line() == line, "what it writes is not a fixed point")
        for tally in read.routes.values + [read.overflow] {
            try Disagreement.check(tally.requests >= 0 && tally.failures >= 0, "a negative count")
            guard let lowest = tally.durations.buckets.first, let highest = tally.durations.buckets.last else {
                continue
            }
            for fraction in [0.0, 0.5, 0.99, 1.0] {
                let percentile = tally.durations.percentile(fraction).map { $0 / .microseconds(1) } ?? -1
                try Disagreement.check(
                    percentile >= Double(lowest.lowerBound) && percentile <= Double(highest.lowerBound) * 2 + 1,
                    "p\(fraction) \(percentile) µs is outside the buckets counted")
            }
        }
    }
}
