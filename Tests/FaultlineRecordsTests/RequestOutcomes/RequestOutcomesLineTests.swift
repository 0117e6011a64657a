import FaultlineRecords
import Foundation
import Testing

/// A line of request outcomes is read back as it was written, routes past the limit are counted together, and a line
/// that is not one is refused with its reason.
@Suite struct RequestOutcomesLineTests {
    static let users = RequestOutcomes.Route(method: "GET", route: "/users/{id}")

    @Test func aLineIsReadBackAsItWasWritten() throws {
        var outcomes = RequestOutcomes(
            start: Date(timeIntervalSince1970: 1_795_000_000), release: "boleto@2.4.1", environment: "production")
        outcomes.end = outcomes.start + 60
        for index in 0..<100 {
            outcomes.record(
                Self.users, outcome: index.isMultiple(of: 20) ? "decoding.2xx" : "ok",
                duration: .milliseconds(40 + index))
        }
        outcomes.record(.init(method: "POST", route: "/travels"), outcome: "server.4xx", duration: .seconds(2))

        let line = outcomes.line()
        #expect(RequestOutcomes.isLine(line))
        #expect(!line.contains(UInt8(ascii: "\n")))
        let read = try RequestOutcomes(line: line)
        #expect(read == outcomes)
        #expect(read.routes[Self.users]?.requests == 100)
        #expect(read.routes[Self.users]?.failures == 5)
        #expect(read.routes[Self.users]?.outcomes == ["ok": 95, "decoding.2xx": 5])
    }

    @Test func timesAreReadAsSentryWritesThemAsTextOrSeconds() throws {
        let line = Data(
            #"{"type":"faultline.request_outcomes","id":"5b0c8e5fd2a84b6e9c1d0f3a7e2b4c61","start":1795000000.5,"timestamp":"2026-11-18T11:07:40.500Z","routes":[]}"#
                .utf8)
        let read = try RequestOutcomes(line: line)
        #expect(read.start == Date(timeIntervalSince1970: 1_795_000_000.5))
        #expect(read.end == Date(timeIntervalSince1970: 1_795_000_060.5))
    }

    @Test func routesPastTheLimitAreCountedTogether() throws {
        // (the log keeps times to the millisecond)
        var outcomes = RequestOutcomes(start: Date(timeIntervalSince1970: 1_795_000_000))
        for index in 0..<(RequestOutcomes.routeLimit + 50) {
            outcomes.record(.init(method: "GET", route: "/r\(index)"), outcome: "ok", duration: .milliseconds(1))
        }
        outcomes.record(.init(method: "GET", route: "/r0"), outcome: "transport", duration: .milliseconds(1))
        #expect(outcomes.routes.count == RequestOutcomes.routeLimit)
        #expect(outcomes.overflow.requests == 50)
        #expect(outcomes.routes[.init(method: "GET", route: "/r0")]?.requests == 2)
        #expect(try RequestOutcomes(line: outcomes.line()) == outcomes)
    }

    @Test func aSuccessFoundFailedLaterIsCountedOnceAsTheFailure() {
        var outcomes = RequestOutcomes(start: Date())
        outcomes.record(Self.users, outcome: "ok", duration: .milliseconds(5))
        outcomes.reclassifySuccess(of: Self.users, as: "decoding.2xx")
        #expect(outcomes.routes[Self.users]?.outcomes == ["decoding.2xx": 1])
        #expect(outcomes.routes[Self.users]?.durations.total == 1)
        // with no success of its route in the interval, it is a request of its own, without a duration
        outcomes.reclassifySuccess(of: Self.users, as: "decoding.2xx")
        #expect(outcomes.routes[Self.users]?.outcomes == ["decoding.2xx": 2])
        #expect(outcomes.routes[Self.users]?.durations.total == 1)
    }

    @Test(arguments: [
        (
            #"{"type":"faultline.request_outcomes","id":"5b0c8e5fd2a84b6e9c1d0f3a7e2b4c61","start":"2026-11-28T12:00:00Z","timestamp":"2026-11-28T12:01:00Z"}"#,
            "no routes list"
        ),
        (
            #"{"type":"other","start":"2026-11-28T12:00:00Z","timestamp":"2026-11-28T12:01:00Z","routes":[]}"#,
            "its type is not"
        ),
        (
            #"{"type":"faultline.request_outcomes","id":"5b0c8e5fd2a84b6e9c1d0f3a7e2b4c61","start":"2026-11-28T12:02:00Z","timestamp":"2026-11-28T12:01:00Z","routes":[]}"#,
            "no start and timestamp"
        ),
        (
            #"{"type":"faultline.request_outcomes","id":"5b0c8e5fd2a84b6e9c1d0f3a7e2b4c61","start":"2026-11-28T12:00:00Z","timestamp":"2026-11-28T12:01:00Z","routes":[{"method":"GET","route":"/a","outcomes":{"ok":-1},"durations_us":[]}]}"#,
            "a count is not an integer"
        ),
        (
            #"{"type":"faultline.request_outcomes","id":"5b0c8e5fd2a84b6e9c1d0f3a7e2b4c61","start":"2026-11-28T12:00:00Z","timestamp":"2026-11-28T12:01:00Z","routes":[{"method":"GET","route":"/a","outcomes":{"ok":1},"durations_us":[[33,1]]}]}"#,
            "a duration bucket"
        ),
        (
            #"{"type":"faultline.request_outcomes","id":"5b0c8e5fd2a84b6e9c1d0f3a7e2b4c61","start":"2026-11-28T12:00:00Z","timestamp":"2026-11-28T12:01:00Z","routes":[{"method":"GET","route":"/a","outcomes":{"ok":1},"durations_us":[]},{"method":"GET","route":"/a","outcomes":{"ok":1},"durations_us":[]}]}"#,
            "comes twice"
        ),
        (
            #"{"type":"faultline.request_outcomes","id":"5b0c8e5fd2a84b6e9c1d0f3a7e2b4c61","start":"2026-11-28T12:00:00Z","timestamp":"2026-11-28T12:01:00Z","routes":[{"method":"GET","route":"/a","outcomes":{"ok":1,"o\u006b":2},"durations_us":[]}]}"#,
            "the outcome ok comes twice"
        ),
        (#"{"type":"faultline.request_outcomes","#, "not JSON"),
        (
            #"{"type":"faultline.request_outcomes","id":"5B0C","start":"2026-11-28T12:00:00Z","timestamp":"2026-11-28T12:01:00Z","routes":[]}"#,
            "its id is not"
        ),
    ])
    func aLineThatIsNotRequestOutcomesIsRefusedWithItsReason(line: String, reason: String) {
        #expect {
            try RequestOutcomes(line: Data(line.utf8))
        } throws: { error in
            (error as? RequestOutcomes.ParseFailure)?.reason.contains(reason) == true
        }
    }

    /// A line with the outcome names `names` in each of `routes` routes.
    private static func line(routes: Int, outcomes names: [String]) -> Data {
        let outcomes = names.enumerated().map { #""\#($1)":\#($0 + 1)"# }.joined(separator: ",")
        let list = (0..<routes).map {
            #"{"method":"GET","route":"/r\#($0)","outcomes":{\#(outcomes)},"durations_us":[]}"#
        }
        return Data(
            (#"{"type":"faultline.request_outcomes","id":"5b0c8e5fd2a84b6e9c1d0f3a7e2b4c61","start":"2026-11-28T12:00:00Z","timestamp":"2026-11-28T12:01:00Z","routes":["#
                + list.joined(separator: ",") + "]}").utf8)
    }

    /// A line with one route whose `durations_us` are written as `durations`.
    private static func line(durations: String) -> Data {
        Data(
            (#"{"type":"faultline.request_outcomes","id":"5b0c8e5fd2a84b6e9c1d0f3a7e2b4c61","start":"2026-11-28T12:00:00Z","timestamp":"2026-11-28T12:01:00Z","routes":[{"method":"GET","route":"/a","outcomes":{"ok":4},"durations_us":"#
                + durations + "}]}").utf8)
    }

    /// Durations as Faultline writes them are read in one pass, and any other way by the general reader: both read
    /// them to the same buckets, or refuse them for the same reason.
    @Test func durationsWrittenAnyWayAreReadToTheSameBucketsOrRefusedForTheSameReason() throws {
        let compact = try RequestOutcomes(line: Self.line(durations: "[[0,1],[512,2],[1073741824,1]]"))
        for spaced in [
            "[ [0,1], [512,2], [1073741824,1] ]", "[[0, 1],[512,2],[1073741824 ,1]]", "[[0,1],[512,2],[1073741824,1] ]",
        ] {
            #expect(try RequestOutcomes(line: Self.line(durations: spaced)).routes == compact.routes)
        }
        #expect(compact.routes.values.first?.durations.total == 4)
        #expect(try RequestOutcomes(line: Self.line(durations: "[]")).routes.values.first?.durations.total == 0)
        let refusals = [
            ("[[512,0]]", "a count is not an integer"), ("[[512, 0]]", "a count is not an integer"),
            ("[[513,1]]", "a duration bucket"), ("[[0512,1]]", "a duration bucket"),
            ("[[-512,1]]", "a duration bucket"),
            ("[[512,1,2]]", "a duration bucket"), ("[[512,1],]", "a duration bucket"),
            ("[[1000000000000000000000,1]]", "a duration bucket"), ("[[512,1.0]]", "a count is not an integer"),
            ("[[512,1],[512,99999999999999999999]]", "a count is not an integer"),
        ]
        for (durations, reason) in refusals {
            let refusal = Self.reason(Self.line(durations: durations))
            #expect(refusal?.contains(reason) == true, "\(durations): \(refusal ?? "read")")
        }
    }

    /// Why `line` is refused; `nil` when it is read.
    private static func reason(_ line: Data) -> String? {
        do {
            _ = try RequestOutcomes(line: line)
            return nil
        } catch {
            return error.reason
        }
    }

    /// Outcome numbers of a tally, and the one named twice among them.
    static let outcomeLists: [(numbers: [Int], twice: Int?)] = [
        (Array(0..<10), nil), (Array(0..<9) + [0], 0), (Array(0..<8) + [7], 7), (Array(0..<3) + [1], 1),
        (Array(0..<20) + [12], 12),
    ]

    /// A tally's outcomes are compared in turn while they are few and found in a table beyond that: a name met twice is
    /// refused on either side of that change, and the same names in two routes are not twice.
    @Test(arguments: outcomeLists)
    func anOutcomeNamedTwiceInATallyIsRefusedHoweverManyItHas(numbers: [Int], twice: Int?) throws {
        let line = Self.line(routes: 2, outcomes: numbers.map { "outcome-\($0)" })
        guard let twice else {
            let read = try RequestOutcomes(line: line)
            #expect(read.routes.count == 2)
            #expect(read.routes.values.allSatisfy { $0.outcomes.count == numbers.count })
            return
        }
        #expect {
            try RequestOutcomes(line: line)
        } throws: { error in
            (error as? RequestOutcomes.ParseFailure)?.reason.contains("the outcome outcome-\(twice) comes twice")
                == true
        }
    }
}
