import ArgumentParser
import FaultlineLogReading
import FaultlineReporting
import FaultlineServe
import FaultlineTestServer
import FaultlineTriage
import Foundation
import SeedScenarios

/// `faultline-demo` (`scripts/demo`): the whole toolkit on loopback with nothing to set up. It starts the
/// seed-contract server and an ingest (`faultline serve`), drives a capturing client through the seed scenarios with
/// an ingest outage in the middle that the log rides out, and prints what each request became and the summary of the
/// local log. An executable of its own, so that the `faultline` a user installs links neither the seed-contract server
/// nor the scenarios.
@main
struct FaultlineDemo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "faultline-demo",
        abstract: "Run the seed scenarios through a capturing client, its log and an ingest, then summarize.",
        discussion: """
            Examples:
              faultline-demo --log-dir /tmp/faultline-demo
                  The seed scenarios through the pipeline to an embedded ingest, then a summary.
              faultline-demo --dsn http://KEY@127.0.0.1:8000/1
                  The same, delivered to a Sentry-compatible ingest.
            """)

    @Option(help: "Where the app's local log goes; a new temporary directory by default. It must be empty.")
    var logDir: String?

    @Option(help: "Deliver to this DSN (such as a real Sentry or Bugsink) instead of the embedded ingest.")
    var dsn: String?

    @Option(
        help: "Seconds to wait at the end for every event to be delivered; the demo exits 1 when some were not (60).")
    var timeout = 60

    func validate() throws {
        if timeout < 0 { throw ValidationError("--timeout is a number of seconds, 0 or more.") }
    }

    /// The embedded ingest's key.
    private static let publicKey = "faultlinedemo0000000000000000000"

    func run() async throws {
        let logs = URL(
            fileURLWithPath: logDir
                ?? FileManager.default.temporaryDirectory.appendingPathComponent("faultline-demo-\(UUID())").path)
        if let contents = try? FileManager.default.contentsOfDirectory(atPath: logs.path), !contents.isEmpty {
            throw ValidationError("\(logs.path) is not empty: the demo writes a fresh log. Pass another --log-dir.")
        }
        do {
            try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        } catch {
            throw ValidationError("cannot create the log directory \(logs.path): \(error.localizedDescription)")
        }
        let ingest = dsn == nil ? try await RunningIngest(Self.ingestConfiguration(logs: logs)) : nil
        // The demo writes its own scenario locally: a SENTRY_DSN in the shell must not receive it.
        var options = Reporter.Options(logDirectory: logs, environmentVariables: [:])
        options.release = "boleto-ios@4.2.0"
        // It plays an iOS app, whose events name no server.
        options.serverName = nil
        options.dsn = try DSN(dsn ?? ingest?.dsn ?? "")
        let reporter = try Reporter(options: options)
        await reporter.setUser(UserContext(id: "KAKAO_kim", segment: "KAKAO"))
        print("Faultline demo: events go to \(dsn ?? "the embedded ingest (faultline serve), \(ingest?.dsn ?? "")")")
        print("the app's local log: \(logs.path)")

        try await SeedServer.run { server in
            print("seed-contract server on \(server.baseURL.absoluteString)\n")
            await SeedDemo(server: server, reporter: reporter).run { line in
                print("\(line.scenario.padding(toLength: 4, withPad: " ", startingAt: 0))\(line.action)")
                print("    → \(line.outcome)")
            } beforeEach: { index in
                await Self.playOutage(of: ingest, before: index)
            }
        }
        let delivered = await reporter.close(timeout: .seconds(timeout))
        try await ingest?.stop()
        print(
            "\n" + (delivered ? "Every event was delivered." : "Some events were not delivered: see faultline stats."))
        if ingest != nil {
            let received = await LogScan(
                files: try LogFile.all(in: logs.appendingPathComponent("ingest")), filter: EventFilter())
            print(
                "The ingest received \(counted(received.events, "event")): faultline issues --log-dir \(logs.path)/ingest"
            )
        }
        var scan = await LogScan(files: try LogFile.all(in: logs), filter: EventFilter())
        // As `faultline summary` reads them: each issue's share of its route's requests.
        scan.countRequests(await RouteOutcomes(files: RouteOutcomes.files(in: logs), filter: RouteOutcomes.Filter()))
        print("\n$ faultline summary --log-dir \(logs.path)")
        print(SummaryReport(scan).text(style: .standardOutput), terminator: "")
        print("\nA page to share: faultline report --html --log-dir \(logs.path) -o report.html")
        if !delivered { throw ExitCode.failure }
    }

    /// The embedded ingest: on loopback, at a port the system chooses, writing to `<logs>/ingest`.
    private static func ingestConfiguration(logs: URL) -> IngestConfiguration {
        var configuration = IngestConfiguration(
            logDirectory: logs.appendingPathComponent("ingest"), publicKey: publicKey)
        configuration.port = 0
        return configuration
    }

    /// Stops the embedded ingest before the first scenario of ``SeedDemo/outage`` and starts it again after its last.
    private static func playOutage(of ingest: RunningIngest?, before index: Int) async {
        guard let ingest else { return }
        do {
            if index == SeedDemo.outage.lowerBound {
                try await ingest.stop()
                print("--  the ingest goes down: events wait in the log")
            } else if index == SeedDemo.outage.upperBound {
                try await ingest.restart()
                print("--  the ingest is back: the uploader sends what waited")
            }
        } catch {
            print("--  the embedded ingest could not be restarted: \(error)")
        }
    }
}
