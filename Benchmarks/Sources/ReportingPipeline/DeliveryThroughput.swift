import ArgumentParser
import BenchmarkSupport
import FaultlineReporting
import FaultlineTestServer
import Foundation

/// How fast captured events reach a Sentry-compatible endpoint: a burst captured as fast as the caller can, timed
/// until the endpoint has received every event, beside the official Python SDK sending the same event to the same
/// endpoint, rounds interleaved. Both sides get a queue (and Faultline an outbox) that holds the whole burst, so that
/// neither loses events.
struct DeliveryThroughput: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delivery-throughput",
        abstract: "Events per second from capture to a loopback endpoint, beside sentry-python.")

    @Option(help: "Interleaved rounds; each delivers one burst from each side.")
    var rounds = 3

    @Option(help: "Events per burst.")
    var events = 5000

    @Option(help: "Write the results as JSON to this file.")
    var json: String?

    @Option(help: "The sides to run, comma-separated (faultline, python, floor); one alone is for profiling.")
    var sides = Side.allCases.map(\.rawValue).joined(separator: ",")

    /// What delivers the burst.
    enum Side: String, CaseIterable {
        case faultline
        case python
        /// URLSession posting the prebuilt envelope: the transport and endpoint alone, the floor under any sender.
        case floor
    }

    func run() async throws {
        let (rounds, events) = (rounds, events)
        let sides = try sides.split(separator: ",").map {
            guard let side = Side(rawValue: String($0)) else { throw ValidationError("unknown side \($0)") }
            return side
        }
        let event = try await SampleFailure.eventJSON()
        let (rates, cpu) = try await RecordingIngest.run(recorder: IngestRecorder(keepsBodies: false)) { ingest in
            let peer = try await SentryPythonPeer(dsn: ingest.dsn(), event: event, queueSize: events)
            var rates: [Side: [Double]] = [:]
            var cpu: [Side: [Double]] = [:]
            for round in 0...rounds {
                // Round 0 is a smaller burst that warms every side up and is not counted; the order alternates.
                let burst = round == 0 ? events / 10 : events
                for side in round.isMultiple(of: 2) ? sides : sides.reversed() {
                    let before = await ingest.recorder.requestCount
                    let cpuBefore = Self.cpuSeconds(peer)
                    let seconds: Double
                    switch side {
                    case .faultline: seconds = try await Self.deliverWithFaultline(burst, to: ingest, since: before)
                    case .python:
                        seconds = try await Self.deliverWithPython(burst, peer: peer, to: ingest, since: before)
                    case .floor: seconds = try await Self.post(burst, event: event, to: ingest)
                    }
                    if round > 0 {
                        rates[side, default: []].append(Double(burst) / seconds)
                        cpu[side, default: []].append((Self.cpuSeconds(peer) - cpuBefore) / Double(burst) * 1000)
                    }
                }
            }
            await peer.stop()
            return (rates.mapValues(Samples.init), cpu.mapValues(Samples.init))
        }
        print(
            """
            delivery-throughput: \(rounds) rounds × a burst of \(events) events captured as fast as possible, timed \
            until a loopback endpoint received all of them; sides interleaved. CPU is that of both processes (this \
            one runs the endpoint too) while the side delivers, per event.
            | side | median events/s | min | max | median ratio to sentry-python | median CPU ms/event |
            |---|---|---|---|---|---|
            """)
        let names: [Side: String] = [
            .python: "sentry-python 2.75, transport queue \(events)",
            .faultline: "Faultline Reporter (log + outbox + uploader), queue and outbox \(events)",
            .floor: "floor: URLSession posting the prebuilt gzip envelope, 4 in flight",
        ]
        for side in [Side.python, .faultline, .floor] {
            guard let samples = rates[side], let name = names[side] else { continue }
            let ratio = rates[.python].map { String(format: "%.1f", samples.median / $0.median) } ?? "–"
            let milliseconds = cpu[side].map { String(format: "%.2f", $0.median) } ?? "–"
            print("| \(name) | \(Self.row(samples)) | \(ratio) | \(milliseconds) |")
        }
        print("target: Faultline ≥ 10× sentry-python")
        guard let faultline = rates[.faultline], let python = rates[.python] else { return }
        let ratio = faultline.median / python.median
        try BenchmarkResult.write(
            [
                BenchmarkResult(
                    name: "delivery-throughput", what: "delivery to a local endpoint, gzip on",
                    faultline: String(format: "%.0f events/s", faultline.median),
                    peer: String(format: "sentry-python %.0f events/s", python.median), value: faultline.median,
                    peerValue: python.median, ratio: String(format: "%.1f×", ratio), target: "≥ 10×", met: ratio >= 10,
                    sides: rates.map { side, samples in
                        .init(
                            names[side] ?? side.rawValue,
                            samples.values("events_per_second").merging(cpu[side]?.values("cpu_ms_per_event") ?? [:]) {
                                first, _ in first
                            })
                    },
                    parameters: ["rounds": "\(rounds)", "events per burst": "\(events)"])
            ], to: json)
    }

    /// The CPU seconds this process and the Python peer's have used so far.
    static func cpuSeconds(_ peer: SentryPythonPeer) -> Double {
        ProcessCPU.ownSeconds + (ProcessCPU.seconds(ofProcess: peer.processIdentifier) ?? 0)
    }

    /// Captures `burst` failures with a new reporter as fast as the caller can; returns the seconds until the
    /// endpoint has received them all.
    static func deliverWithFaultline(
        _ burst: Int, to ingest: RunningRecordingIngest, since before: Int
    ) async throws -> Double {
        let logs = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-bench-\(UUID())")
        defer { try? FileManager.default.removeItem(at: logs) }
        let reporter = try await SampleFailure.reporter(
            logDirectory: logs, dsn: ingest.dsn(), maxQueueSize: burst, outboxCount: burst)
        let failure = SampleFailure()
        let start = ContinuousClock.now
        for _ in 0..<burst { await failure.capture(with: reporter) }
        try await waitUntil(ingest.recorder, hasReceived: before + burst) {
            await reporter.uploader?.statistics.discarded.isEmpty == false
        }
        let elapsed = ContinuousClock.now - start
        await reporter.close()
        return elapsed.seconds
    }

    /// Has sentry-python capture `burst` events as fast as it can; returns the seconds until the endpoint has
    /// received them all.
    static func deliverWithPython(
        _ burst: Int, peer: SentryPythonPeer, to ingest: RunningRecordingIngest, since before: Int
    ) async throws -> Double {
        let start = ContinuousClock.now
        peer.send("deliver \(burst)")
        try await waitUntil(ingest.recorder, hasReceived: before + burst)
        let elapsed = ContinuousClock.now - start
        _ = try await peer.answer()
        return elapsed.seconds
    }

    /// Posts the event's envelope, built and compressed once, `burst` times; returns the seconds it took.
    static func post(_ burst: Int, event: Data, to ingest: RunningRecordingIngest) async throws -> Double {
        let dsn = try DSN(ingest.dsn())
        let body = Gzip.compress(Envelope(eventID: "0", eventJSON: event, dsn: dsn).serialized(sentAt: Date()))
        let result = await EnvelopeLoad(concurrency: 4).run(Array(repeating: body, count: burst), to: dsn)
        guard result.accepted == burst else { throw CleanExit.message("the endpoint refused \(result.refused)") }
        return result.seconds
    }

    /// Returns once `recorder` has received `count` requests in all; throws after 10 minutes, or as soon as the
    /// sender says it `dropped` events.
    static func waitUntil(
        _ recorder: IngestRecorder, hasReceived count: Int, dropped: () async -> Bool = { false }
    ) async throws {
        let deadline = ContinuousClock.now + .seconds(600)
        while await recorder.requestCount < count {
            guard ContinuousClock.now < deadline else { throw CleanExit.message("the endpoint stopped receiving") }
            guard await !dropped() else { throw CleanExit.message("the sender dropped events") }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    static func row(_ samples: Samples) -> String {
        [0.5, 0, 1].map { String(format: "%.0f", samples.quantile($0)) }.joined(separator: " | ")
    }
}
