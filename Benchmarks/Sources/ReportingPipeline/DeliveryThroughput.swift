import ArgumentParser
import BenchmarkSupport
import FaultlineReporting
import FaultlineTestServer
import Foundation

/// How fast captured events reach a Sentry-compatible endpoint: a burst captured as fast as the caller can, timed
/// until the endpoint has received every event, beside the official Python SDK sending the same event to the same
/// endpoint, rounds interleaved. Both sides get a queue that holds the whole burst, so that neither loses events.
struct DeliveryThroughput: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delivery-throughput",
        abstract: "Events per second from capture to a loopback endpoint, beside sentry-python.")

    @Option(help: "Interleaved rounds; each delivers one burst from each side.")
    var rounds = 3

    @Option(help: "Events per burst.")
    var events = 5000

    func run() async throws {
        let (rounds, events) = (rounds, events)
        let event = try await SampleFailure.eventJSON()
        let rates = try await RecordingIngest.run(recorder: IngestRecorder(keepsBodies: false)) { ingest in
            let peer = try await SentryPythonPeer(dsn: ingest.dsn(), event: event, queueSize: events)
            var faultline: [Double] = []
            var python: [Double] = []
            for round in 0...rounds {
                // Round 0 is a smaller burst that warms both sides up and is not counted.
                let burst = round == 0 ? events / 10 : events
                for side in round.isMultiple(of: 2) ? [0, 1] : [1, 0] {
                    let before = await ingest.recorder.requestCount
                    let clock = ContinuousClock()
                    if side == 0 {
                        let logs = FileManager.default.temporaryDirectory.appendingPathComponent(
                            "faultline-bench-\(UUID())")
                        defer { try? FileManager.default.removeItem(at: logs) }
                        let reporter = try await SampleFailure.reporter(
                            logDirectory: logs, dsn: ingest.dsn(), maxQueueSize: events)
                        let start = clock.now
                        let failure = SampleFailure()
                        for _ in 0..<burst { await failure.capture(with: reporter) }
                        try await Self.waitUntil(ingest.recorder, hasReceived: before + burst)
                        let elapsed = clock.now - start
                        await reporter.close()
                        if round > 0 { faultline.append(Double(burst) / elapsed.seconds) }
                    } else {
                        let start = clock.now
                        peer.send("deliver \(burst)")
                        try await Self.waitUntil(ingest.recorder, hasReceived: before + burst)
                        let elapsed = clock.now - start
                        _ = try await peer.answer()
                        if round > 0 { python.append(Double(burst) / elapsed.seconds) }
                    }
                }
            }
            await peer.stop()
            return (faultline: Samples(faultline), python: Samples(python))
        }
        print(
            """
            delivery-throughput: \(rounds) rounds × a burst of \(events) events captured as fast as possible, timed \
            until a loopback endpoint received all of them; sides interleaved
            | side | median events/s | min | max | median ratio to sentry-python |
            |---|---|---|---|---|
            | sentry-python 2.75, transport queue \(events) | \(Self.row(rates.python)) | 1 |
            | Faultline Reporter (log + outbox + uploader), queue \(events) | \(Self.row(rates.faultline)) | \
            \(String(format: "%.1f", rates.faultline.median / rates.python.median)) |
            target: Faultline ≥ 10× sentry-python
            """)
    }

    /// Returns once `recorder` has received `count` requests in all; throws after 10 minutes.
    static func waitUntil(_ recorder: IngestRecorder, hasReceived count: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(600)
        while await recorder.requestCount < count {
            guard ContinuousClock.now < deadline else { throw CleanExit.message("the endpoint stopped receiving") }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    static func row(_ samples: Samples) -> String {
        [0.5, 0, 1].map { String(format: "%.0f", samples.quantile($0)) }.joined(separator: " | ")
    }
}
