import FaultlineLogReading
import FaultlineRecords
import FaultlineReporting
import Foundation
import Testing

@testable import FaultlineTriage

/// A `requests/` log read on several cores, in pieces, counts what one sequential read counts: every interval and
/// span once, each file once, and the releases with request outcomes kept out of the estimates.
@Suite struct RouteOutcomesPiecesTests {
    /// A transaction of `release` as sentry-python sends it, sampled at `rate`, with a request span to user `user`
    /// that took `milliseconds` and was answered `status`.
    static func transaction(release: String, rate: Double, user: Int, milliseconds: Int, status: Int) -> String {
        let start = 1_795_000_000 + Double(user)
        let end = start + Double(milliseconds) / 1_000
        return """
            {"type":"transaction","transaction":"GET /profile","release":"\(release)","environment":"production",\
            "start_timestamp":\(start),"timestamp":\(end + 0.01),"contexts":{"trace":{"op":"http.server",\
            "data":{"sentry.sample_rate":\(rate)}}},"spans":[{"op":"http.client",\
            "description":"GET https://api.example.com/users/\(user)","start_timestamp":\(start),"timestamp":\(end),\
            "data":{"http.method":"GET","http.response.status_code":\(status)}},\
            {"op":"db","description":"SELECT 1","start_timestamp":\(start),"timestamp":\(end)}]}
            """
    }

    @Test func aLogReadInPiecesCountsWhatOneReadCounts() async throws {
        // Given a requests/ log: 40 intervals of two releases (one of them also sending spans), a line that is not
        // JSON, and 90 transactions of three releases sampled at 0.25 and 0.5
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pieces-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = LogLayout(directory).requests
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var outcomeLines: [String] = []
        for index in 0..<40 {
            let start = Date(timeIntervalSince1970: 1_795_000_000 + Double(index) * 60)
            var outcomes = RequestOutcomes(
                start: start, end: start + 60, release: index.isMultiple(of: 2) ? "ios@1.0" : "ios@1.1",
                environment: "production")
            for request in 0..<(5 + index % 7) {
                let route = RequestOutcomes.Route(method: "GET", route: request % 3 == 0 ? "/users/{id}" : "/orders")
                outcomes.record(
                    route, outcome: request % 5 == 4 ? "server.5xx" : "ok",
                    duration: .milliseconds(20 + index * 13 + request * 7))
            }
            outcomeLines.append(String(decoding: outcomes.line(), as: UTF8.self))
        }
        outcomeLines.insert("{not json", at: 17)
        let transactionLines = (0..<90).map { index in
            Self.transaction(
                release: ["api-py@2.0", "api-py@2.1", "ios@1.0"][index % 3], rate: index % 4 == 0 ? 0.25 : 0.5,
                user: index, milliseconds: 15 + index * 11 % 400, status: index % 9 == 8 ? 503 : 200)
        }
        try (outcomeLines.joined(separator: "\n") + "\n").write(
            to: folder.appendingPathComponent("outcomes.jsonl"), atomically: true, encoding: .utf8)
        try (transactionLines.joined(separator: "\n") + "\n").write(
            to: folder.appendingPathComponent("transactions.jsonl"), atomically: true, encoding: .utf8)
        let files = RouteOutcomes.files(in: directory)
        let transactionFiles = RouteOutcomes.transactionFiles(in: directory)

        // When it is read whole, and in pieces of a few hundred bytes
        let whole = await RouteOutcomes(
            files: files, transactionFiles: transactionFiles, filter: .init(), pieceSize: 1 << 30)
        let pieces = await RouteOutcomes(
            files: files, transactionFiles: transactionFiles, filter: .init(), pieceSize: 600)

        // Then both count every line once, each file once, and report the same routes and estimates
        #expect(LogPiece.plan(files + transactionFiles, size: 600).count > 20)
        #expect(pieces.read == whole.read)
        #expect(pieces.read.files == 2 && pieces.read.intervals == 40 && pieces.read.unreadableLines == 1)
        #expect(pieces.read.transactions == 90 && pieces.read.spans == 90)
        #expect(RoutesReport(pieces) == RoutesReport(whole))
        // and the spans of ios@1.0, which sent request outcomes, are not estimated: only the Python releases are
        let report = RoutesReport(pieces)
        #expect(report.totals.requests == (0..<40).reduce(0) { $0 + 5 + $1 % 7 })
        #expect(report.estimatedRoutes.map(\.spans).reduce(0, +) == 60)
        #expect(Set(report.estimatedRoutes.flatMap(\.releases)) == ["api-py@2.0", "api-py@2.1"])
    }
}
