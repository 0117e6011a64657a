import Foundation

extension RequestOutcomes {
    /// Why a line or an envelope item is not request outcomes.
    package struct ParseFailure: Error, Hashable, Sendable, CustomStringConvertible {
        package let reason: String
        package var description: String { "not request outcomes: \(reason)" }
    }

    /// The most requests one line may count for an outcome or a bucket: more than any device sends in an interval,
    /// few enough that no sum of them overflows, over as many lines as a log of any size holds.
    package static let countLimit = 1 << 32

    /// Reads request outcomes back from the JSON of ``line()``, as the log holds them or an envelope item carries them
    /// (its members in any order, unknown members ignored), with the scanner triage reads events with
    /// (``RequestOutcomesScan``). Every count must be an integer from 1 to ``countLimit``, every bucket one that
    /// ``LatencyHistogram`` has, and no route or outcome of a route may come twice.
    package init(line: some DataProtocol) throws(ParseFailure) {
        var scan = RequestOutcomesScan()
        let read = { (bytes: UnsafeBufferPointer<UInt8>) in
            Result { () throws(ParseFailure) in try scan.read(bytes) }
        }
        try (line.withContiguousStorageIfAvailable(read) ?? Array(line).withUnsafeBufferPointer(read)).get()
        self.init(scan)
    }

    /// The request outcomes `scan` read.
    package init(_ scan: RequestOutcomesScan) {
        self.init(
            id: scan.string(scan.id), start: Date(timeIntervalSince1970: scan.start),
            end: Date(timeIntervalSince1970: scan.end), release: scan.release.map(scan.string),
            environment: scan.environment.map(scan.string))
        for route in scan.routes {
            routes[Route(method: scan.string(route.method), route: scan.string(route.route))] = Tally(
                route.tally, of: scan)
        }
        overflow = scan.overflow.map { Tally($0, of: scan) } ?? Tally()
    }
}

extension RequestOutcomes.Tally {
    /// The requests `tally` of `scan` counted.
    init(_ tally: RequestOutcomesScan.Tally, of scan: RequestOutcomesScan) {
        self.init()
        for outcome in scan.outcomes[tally.outcomes] { outcomes[scan.string(outcome.name)] = outcome.count }
        durations.add(scan.buckets[tally.buckets])
    }
}
