import FaultlineLogReading
import FaultlineTriage
import Foundation
import TestSupport
import Testing

/// `Dashboards/lnav/faultline_log.json` loaded by Debian's lnav, headless, over the demo's log: its SQL view of the
/// events counts what `faultline` counts.
@Suite struct LnavFormatTests {
    static let format = Repository.file("Dashboards/lnav/faultline_log.json")

    @Test func lnavReadsTheDemoLogAndItsSQLCountsMatchFaultlines() async throws {
        let temporary = try TemporaryDirectory("lnav")
        defer { temporary.remove() }
        let work = temporary.url
        let logs = work.appendingPathComponent("logs")
        _ = try await BuiltFaultline.run(["--log-dir", logs.path], program: BuiltFaultline.demo)
        let scan = await LogScan(files: try LogFile.all(in: logs), filter: EventFilter())
        let lnav = Lnav(home: work.appendingPathComponent("home"))
        try await lnav.run(["-i", Self.format.path])

        // Events by kind, as lnav's SQL sees them
        let byKind = try await lnav.query(
            #"SELECT "tags/error.kind", count(*) FROM faultline_log GROUP BY 1 ORDER BY 1"#, log: logs)
        #expect(byKind == scan.kinds.sorted { $0.key < $1.key }.map { [$0.key, String($0.value)] })

        // Server failures by route and business code, and users by segment
        let byCode = try await lnav.query(
            #"SELECT "tags/http.route", "tags/server.code", count(*) FROM faultline_log "#
                + #"WHERE "tags/error.kind" = 'server' AND "tags/server.code" IS NOT NULL GROUP BY 1, 2 ORDER BY 1"#,
            log: logs)
        let codes = scan.issues.values.filter { $0.kind == "server" && !$0.serverCodes.isEmpty }
            .map { [$0.routes.keys.first ?? "", $0.serverCodes.keys.first ?? "", String($0.events)] }
        #expect(byCode == codes.sorted { $0[0] < $1[0] })
        let users = try await lnav.query(#"SELECT count(DISTINCT "user/id") FROM faultline_log"#, log: logs)
        #expect(users == [[String(scan.users.count)]])
    }
}

/// Debian's `lnav`, headless, with its configuration in a home of the test's own.
struct Lnav {
    let home: URL

    /// Runs `lnav arguments`; returns what it printed, failing when it reports an error.
    @discardableResult
    func run(_ arguments: [String]) async throws -> String {
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let text = try await ExternalProcess.run(
            URL(fileURLWithPath: "/usr/bin/lnav"), arguments,
            environment: ["PATH": "/usr/bin:/bin", "HOME": home.path, "TERM": "dumb"], errorsToOutput: true
        ).succeeded("lnav \(arguments)").text
        try #require(!text.contains("error:"), "lnav \(arguments): \(text)")
        return text
    }

    /// The rows of an SQL query over the log files in `log`, without the header, cells split on runs of spaces.
    func query(_ sql: String, log: URL) async throws -> [[String]] {
        let text = try await run(["-n", "-c", ";" + sql, log.appendingPathComponent("events.jsonl").path])
        return text.split(separator: "\n").dropFirst().map { $0.split(separator: " ").map(String.init) }
    }
}
