import FaultlineLogReading
import FaultlineRecords
import FaultlineReporting
import Foundation
import Testing

@testable import FaultlineTriage

/// The routes view adds each line's counts straight to running tallies found by the line's bytes: what it counts is
/// the sum of the request outcomes each line reads to, through any filter, and whichever way a line escapes its
/// strings.
@Suite struct OutcomeTalliesTests {
    @Test(arguments: [
        RouteOutcomes.Filter(),
        Self.filter(releases: ["ios@1.1"]),
        Self.filter(releases: [""]),
        Self.filter(environments: ["staging"]),
        Self.filter(routes: ["/orders"]),
        Self.filter(since: 1_795_000_000 + 20 * 60, until: 1_795_000_000 + 50 * 60),
    ])
    func theRunningTalliesAreTheSumOfTheLines(filter: RouteOutcomes.Filter) async throws {
        // Given 60 intervals of three releases (one of them none) and two environments, their routes written plainly
        // or with escapes, some with an overflow, and lines that are not request outcomes between them
        var lines: [String] = []
        for index in 0..<60 {
            let start = Date(timeIntervalSince1970: 1_795_000_000 + Double(index) * 60)
            var outcomes = RequestOutcomes(
                start: start, end: start + 60, release: [nil, "ios@1.0", "ios@1.1"][index % 3],
                environment: index % 4 == 0 ? "staging" : "production")
            for request in 0..<(3 + index % 5) {
                let route = RequestOutcomes.Route(
                    method: request % 2 == 0 ? "GET" : "POST", route: ["/users/{id}", "/orders", "/é"][request % 3])
                outcomes.record(
                    route, outcome: ["ok", "ok", "server.5xx", "decoding.2xx"][(index + request) % 4],
                    duration: .microseconds(40 + index * 997 + request * 31))
            }
            if index % 7 == 0 {
                outcomes.overflow.outcomes["transport"] = 1 + index
                outcomes.overflow.durations.record(.milliseconds(index), count: 1 + index)
            }
            var line = String(decoding: outcomes.line(), as: UTF8.self)
            if index % 2 == 1 {
                line = line.replacingOccurrences(of: "/orders", with: #"\/orders"#)
                    .replacingOccurrences(of: "é", with: #"\u00e9"#).replacingOccurrences(
                        of: #""ok""#, with: #""o\u006b""#)
            }
            lines.append(line)
            if index % 11 == 0 { lines.append(#"{"type":"faultline.request_outcomes","routes":[]}"#) }
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tallies-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = LogLayout(directory).requests
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try (lines.joined(separator: "\n") + "\n").write(
            to: folder.appendingPathComponent("outcomes.jsonl"), atomically: true, encoding: .utf8)

        // When the routes view reads them
        let read = await RouteOutcomes(files: RouteOutcomes.files(in: directory), filter: filter)

        // Then it counts what adding up each line's request outcomes that the filter takes counts
        var routes: [RequestOutcomes.Route: [String?: RequestOutcomes.Tally]] = [:]
        var overflow = RequestOutcomes.Tally()
        var releaseStarts: [String: Double] = [:]
        var unreadable = 0
        for line in lines {
            guard let outcomes = try? RequestOutcomes(line: Data(line.utf8)) else {
                unreadable += 1
                continue
            }
            guard
                filter.accepts(
                    end: outcomes.end.timeIntervalSince1970, release: outcomes.release,
                    environment: outcomes.environment)
            else { continue }
            for (route, tally) in outcomes.routes where filter.routes.isEmpty || filter.routes.contains(route.route) {
                routes[route, default: [:]][outcomes.release, default: RequestOutcomes.Tally()].merge(tally)
            }
            if filter.routes.isEmpty { overflow.merge(outcomes.overflow) }
            if let release = outcomes.release {
                releaseStarts[release] = min(releaseStarts[release] ?? .infinity, outcomes.start.timeIntervalSince1970)
            }
        }
        #expect(unreadable == 6 && read.read.unreadableLines == 6 && read.read.intervals == 60)
        #expect(!routes.isEmpty)
        #expect(read.routes == routes)
        #expect(read.overflow == overflow)
        #expect(read.releaseStarts == releaseStarts)
    }

    private static func filter(
        since: Double? = nil, until: Double? = nil, routes: Set<String> = [], releases: Set<String> = [],
        environments: Set<String> = []
    ) -> RouteOutcomes.Filter {
        var filter = RouteOutcomes.Filter()
        (filter.since, filter.until, filter.routes) = (since, until, routes)
        (filter.releases, filter.environments) = (releases, environments)
        return filter
    }
}
