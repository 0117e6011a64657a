import FaultlineLogReading
import FaultlineRecords

/// The request outcomes of one piece of a log, added up as its lines are read: each line is scanned into storage the
/// next one reuses (``RequestOutcomesScan``), and its counts are added to running tallies found by the bytes of their
/// release and route, so that a line builds no string, dictionary or histogram of its own. ``RouteOutcomes`` merges
/// what each piece counted.
package struct OutcomeTallies {
    private let filter: RouteOutcomes.Filter
    private var scan = RequestOutcomesScan()

    /// Lines of request outcomes read, and lines that were not request outcomes.
    package private(set) var intervals = 0
    package private(set) var unreadableLines = 0
    /// When the first interval counted started and the last one ended, seconds since 1970.
    private(set) var firstStart: Double?
    private(set) var lastEnd: Double?

    /// The releases and environments met, numbered from 1 (0 is none), what the filter says of each, and when each
    /// release's first interval counted started.
    private var releases: Names
    private var environments: Names
    private var releaseStarts: [Int: Double] = [:]
    /// The releases and environments counted, by their numbers.
    private var counted: Set<Numbers> = []

    /// The running tallies, found by their release's number and route's key (``RequestOutcomesScan/Route/key``).
    private var tallyKeys = NumberedByteStrings()
    private var tallies: [Running] = []
    private var key: [UInt8] = []
    /// The outcomes' names met, numbered; the tallies count outcomes by these numbers.
    private var outcomeNames = NumberedByteStrings()
    private var overflow = Running(route: nil, release: nil, isCounted: true)

    package init(filter: RouteOutcomes.Filter) {
        self.filter = filter
        releases = Names(isNoneAccepted: filter.accepts(release: nil))
        environments = Names(isNoneAccepted: filter.accepts(environment: nil))
    }

    /// Adds the requests of `line`, when it is request outcomes that the filter accepts.
    package mutating func read(_ line: UnsafeBufferPointer<UInt8>) {
        do {
            try scan.read(line)
        } catch {
            unreadableLines += 1
            return
        }
        intervals += 1
        let release = releases.number(of: scan.release, in: scan) { filter.accepts(release: $0) }
        let environment = environments.number(of: scan.environment, in: scan) { filter.accepts(environment: $0) }
        guard filter.accepts(end: scan.end), releases.isAccepted[release], environments.isAccepted[environment] else {
            return
        }
        counted.insert(Numbers(release: release, environment: environment))
        firstStart = min(firstStart ?? .infinity, scan.start)
        lastEnd = max(lastEnd ?? -.infinity, scan.end)
        if release != 0 { releaseStarts[release] = min(releaseStarts[release] ?? .infinity, scan.start) }
        for route in scan.routes {
            let tally = tallyNumber(of: route, release: release)
            if tallies[tally].isCounted { tallies[tally].add(route.tally, of: scan, names: &outcomeNames) }
        }
        if filter.routes.isEmpty, let tally = scan.overflow { overflow.add(tally, of: scan, names: &outcomeNames) }
    }

    /// What was counted: the requests of each route by release and those past the reporters' route limit, the
    /// releases and environments counted, and when each release's first interval started.
    package func counts() -> (
        routes: [RequestOutcomes.Route: [String?: RequestOutcomes.Tally]], overflow: RequestOutcomes.Tally,
        counted: Set<RouteOutcomes.ReleaseEnvironment>, releaseStarts: [String: Double]
    ) {
        var routes: [RequestOutcomes.Route: [String?: RequestOutcomes.Tally]] = [:]
        for running in tallies where running.isCounted {
            guard let route = running.route else { continue }
            routes[route, default: [:]][running.release, default: RequestOutcomes.Tally()].merge(tally(of: running))
        }
        let counted = Set(
            counted.map {
                RouteOutcomes.ReleaseEnvironment(
                    release: releases.names[$0.release], environment: environments.names[$0.environment])
            })
        var starts: [String: Double] = [:]
        for (release, start) in releaseStarts {
            if let name = releases.names[release] { starts[name] = start }
        }
        return (routes, tally(of: overflow), counted, starts)
    }

    /// The number of the running tally of `route` in `release`, started when the line is the first to count it.
    private mutating func tallyNumber(of route: RequestOutcomesScan.Route, release: Int) -> Int {
        // The key is built outside `self`: a closure that changed `self.key` would make the scan be copied for it.
        var key: [UInt8] = []
        swap(&key, &self.key)
        defer { swap(&key, &self.key) }
        key.removeAll(keepingCapacity: true)
        withUnsafeBytes(of: UInt64(release).littleEndian) { key.append(contentsOf: $0) }
        scan.withBytes(of: route.key) { key.append(contentsOf: $0) }
        let (number, isNew) = key.withUnsafeBufferPointer { tallyKeys.number(of: $0) }
        if isNew {
            let template = scan.string(route.route)
            tallies.append(
                Running(
                    route: RequestOutcomes.Route(method: scan.string(route.method), route: template),
                    release: releases.names[release],
                    isCounted: filter.routes.isEmpty || filter.routes.contains(template)))
        }
        return number
    }

    private func tally(of running: Running) -> RequestOutcomes.Tally {
        var tally = RequestOutcomes.Tally()
        for (name, count) in running.outcomes {
            tally.outcomes[outcomeNames.withBytes(of: name) { String(decoding: $0, as: UTF8.self) }] = count
        }
        tally.durations = running.durations
        return tally
    }

    /// The requests of a route in a release counted so far, by the number of their outcome's name; `isCounted` when
    /// the filter takes its route.
    private struct Running {
        let route: RequestOutcomes.Route?
        let release: String?
        let isCounted: Bool
        var outcomes: [Int: Int] = [:]
        var durations = LatencyHistogram()

        /// Adds the requests `tally` of `scan` counted, numbering their outcomes' names in `names`.
        mutating func add(
            _ tally: RequestOutcomesScan.Tally, of scan: RequestOutcomesScan, names: inout NumberedByteStrings
        ) {
            for outcome in scan.outcomes[tally.outcomes] {
                let name = scan.withBytes(of: outcome.name) { names.number(of: $0).number }
                outcomes[name, default: 0] += outcome.count
            }
            durations.add(scan.buckets[tally.buckets])
        }
    }

    /// A release and an environment, by their numbers.
    private struct Numbers: Hashable {
        let release: Int
        let environment: Int
    }

    /// Names met, releases or environments, numbered from 1 (0 is none), each with whether the filter takes it.
    private struct Names {
        private var numbers = NumberedByteStrings()
        private(set) var names: [String?] = [nil]
        private(set) var isAccepted: [Bool]

        init(isNoneAccepted: Bool) {
            isAccepted = [isNoneAccepted]
        }

        /// The number of the name `text` of `scan`, 0 for none; `accepts` tells what the filter says of a new one.
        mutating func number(
            of text: RequestOutcomesScan.Text?, in scan: RequestOutcomesScan, accepts: (String) -> Bool
        ) -> Int {
            guard let text else { return 0 }
            let (number, isNew) = scan.withBytes(of: text) { numbers.number(of: $0) }
            if isNew {
                let name = scan.string(text)
                names.append(name)
                isAccepted.append(accepts(name))
            }
            return number + 1
        }
    }
}
