import Faultline
import FaultlineRecords
import Foundation
import Testing

@testable import FaultlineReporting

/// The reporter's request recording as a stage of its own: intervals of request outcomes that start with the first
/// request that ends after the last was written, and transactions that collect the spans ending in them, each step
/// driven by the dates and spans it is given.
@Suite struct RequestRecorderTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let url = URL(string: "https://api.example.com/users/7")!

    static func context(status: Int? = nil) -> RequestContext {
        var context = RequestContext(
            requestID: "r", method: .get, route: "/users/{id}", url: url, allowsRetry: false)
        context.statusCode = status
        return context
    }

    static func span(
        _ spanID: String, transaction: String?, sampled: Bool? = true, at offset: TimeInterval = 0
    ) -> FinishedSpan {
        let context = SpanContext(
            traceID: "771a43a4192642f0b136d5159a501700", spanID: spanID, parentSpanID: nil, isSampled: sampled,
            transactionSpanID: transaction, samplingContext: DynamicSamplingContext())
        return FinishedSpan(
            context: context, operation: "http.client", description: "GET /users/{id}", start: start + offset,
            end: start + offset + 0.1, status: .ok, data: [:], origin: FinishedSpan.requestOrigin)
    }

    /// What a span's fate is called, for comparing fates in one expectation.
    static func name(_ fate: RequestRecorder.SpanFate) -> String {
        switch fate {
        case .transaction: "transaction"
        case .unsampled: "unsampled"
        case .kept: "kept"
        case .leftOut: "leftOut"
        }
    }

    @Test func anIntervalStartsWithTheFirstRequestThatEndsAndIsAddedToTheTotalsWhenItEnds() throws {
        var recorder = RequestRecorder(release: "shop-ios@1.0.0", environment: "production")
        var ids = 0
        let newID = {
            ids += 1
            return "interval-\(ids)"
        }
        let timeout = RequestFailure(
            .transport(TransportFailure(URLError(.timedOut))), context: Self.context())

        // When two requests end, one of them a timeout, and a cancellation that is not counted
        let ok = RequestOutcome.response(Self.context(status: 200), status: 200, duration: .milliseconds(40))
        let first = recorder.count(ok, at: Self.start, newID: newID)
        let second = recorder.count(
            .failure(timeout, request: nil, duration: .seconds(30)), at: Self.start + 5, newID: newID)
        let cancelled = RequestFailure(.cancelled, context: Self.context())
        let third = recorder.count(.failure(cancelled, request: nil, duration: .zero), at: Self.start + 6, newID: newID)
        #expect(first && !second && !third)
        #expect(recorder.totals.routes.isEmpty)

        // Then the interval they ended in holds both, from the first, and ends when it is ended
        let ended = recorder.endInterval(at: Self.start + 60)
        let interval = try #require(ended)
        #expect(interval.id == "interval-1" && interval.start == Self.start && interval.end == Self.start + 60)
        #expect(interval.release == "shop-ios@1.0.0" && interval.environment == "production")
        let route = RequestOutcomes.Route(method: "GET", route: "/users/{id}")
        #expect(interval.routes[route]?.outcomes == ["ok": 1, "transport": 1])
        #expect(recorder.totals.routes[route]?.requests == 2)
        // and nothing is under way until the next request ends, which starts the next interval
        let empty = recorder.endInterval(at: Self.start + 61)
        #expect(empty == nil)
        let startsNext = recorder.count(ok, at: Self.start + 90, newID: newID)
        #expect(startsNext)
        let endedNext = recorder.endInterval(at: Self.start + 80)
        let next = try #require(endedNext)
        #expect(next.id == "interval-2" && next.start == Self.start + 90 && next.end == Self.start + 90)
        #expect(recorder.totals.routes[route]?.requests == 3)
    }

    @Test func aFailureFoundAfterTheResponseCountsItsSuccessAgain() throws {
        var recorder = RequestRecorder(release: nil, environment: nil)
        let decoding = RequestFailure(
            .decoding(
                DecodingFailure(
                    typeName: "Profile", codingPath: "data.profileImage", kind: .keyNotFound, expectedType: nil,
                    debugDescription: "missing")),
            context: Self.context(status: 200))
        _ = recorder.count(
            .response(Self.context(status: 200), status: 200, duration: .milliseconds(40)), at: Self.start,
            newID: { "i" })
        _ = recorder.count(.failedAfterResponse(decoding, request: nil), at: Self.start, newID: { "i" })

        let ended = recorder.endInterval(at: Self.start)
        let interval = try #require(ended)
        let route = RequestOutcomes.Route(method: "GET", route: "/users/{id}")
        #expect(interval.routes[route]?.outcomes == ["decoding.2xx": 1])
    }

    @Test func aTransactionCollectsTheSpansThatEndInItUntilItsFirstSpanEnds() {
        var recorder = RequestRecorder(release: nil, environment: nil)
        let root = Self.span("a1", transaction: "a1", at: 1)
        recorder.open(root.context)

        // When two spans end in it, one in a transaction that is not under way, then the first span
        let joined = [
            recorder.record(Self.span("b1", transaction: "a1")), recorder.record(Self.span("b2", transaction: "a1")),
        ]
        let stray = recorder.record(Self.span("c1", transaction: "zz"))
        let closing = recorder.record(root)

        // Then the transaction holds the two, in the order they ended, and is closed
        #expect(joined.map(Self.name) == ["kept", "kept"] && Self.name(stray) == "leftOut")
        guard case .transaction(let spans) = closing else {
            Issue.record("the first span's end made \(Self.name(closing)), not its transaction")
            return
        }
        #expect(spans.map(\.context.spanID) == ["b1", "b2"])
        let late = recorder.record(Self.span("b3", transaction: "a1"))
        // and a transaction its trace's sampling left out is counted, not kept
        let unsampled = recorder.record(Self.span("d1", transaction: "d1", sampled: false))
        #expect(Self.name(late) == "leftOut" && Self.name(unsampled) == "unsampled")
    }

    @Test func aTransactionHoldsAtMostItsLimitOfSpans() {
        var recorder = RequestRecorder(release: nil, environment: nil)
        let root = Self.span("a1", transaction: "a1")
        recorder.open(root.context)
        let fates = (0..<PendingTransaction.maximumSpans).map {
            Self.name(recorder.record(Self.span("s\($0)", transaction: "a1")))
        }
        let over = recorder.record(Self.span("over", transaction: "a1"))
        let closing = recorder.record(root)

        #expect(fates.allSatisfy { $0 == "kept" } && Self.name(over) == "leftOut")
        guard case .transaction(let spans) = closing else {
            Issue.record("the first span's end made \(Self.name(closing)), not its transaction")
            return
        }
        #expect(spans.count == PendingTransaction.maximumSpans)
    }
}
