import ArgumentParser
import BenchmarkSupport
import FaultlineRecords
import FaultlineReporting
import FaultlineTestServer
import Foundation

/// How fast captured events reach a Sentry-compatible endpoint: a burst captured as fast as the caller can, timed
/// until the endpoint has received every event, beside the official Python SDK sending the same event to the same
/// endpoint, rounds interleaved. Both sides get a queue that holds the whole burst, so that
/// neither loses events. Faultline runs over each of its transports, each beside its floor.
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

    @Option(
        help: """
            The sides to run, comma-separated (\(Side.allCases.map(\.rawValue).joined(separator: ", "))); one alone \
            is for profiling.
            """)
    var sides = Side.allCases.map(\.rawValue).joined(separator: ",")

    @Option(
        help: """
            The gzip level of request bodies, the floors' included (0 sends them as they are); the uploader's default \
            otherwise. For profiling what compression costs.
            """)
    var transportCompressionLevel: Int32?

    @Option(help: "The gzip level of the log's rotated files; the reporter's default otherwise. For profiling.")
    var logCompressionLevel: Int32?

    /// What delivers the burst.
    enum Side: String, CaseIterable {
        case python
        case faultline = "faultline-urlsession"
        case faultlineAsyncHTTPClient = "faultline-ahc"
        /// A transport posting the prebuilt envelope: the transport and endpoint alone, the floor under its sender.
        case floor = "floor-urlsession"
        case floorAsyncHTTPClient = "floor-ahc"

        /// The transport a Faultline or floor side posts over, new for each burst.
        func makeTransport() -> any EnvelopeTransport {
            switch self {
            case .faultlineAsyncHTTPClient, .floorAsyncHTTPClient: ServerTransport.make()
            case .python, .faultline, .floor: URLSessionEnvelopeTransport()
            }
        }

        var name: String {
            switch self {
            case .python: "sentry-python 2.75"
            case .faultline: "Faultline Reporter (log, uploader sending from it), URLSession"
            case .faultlineAsyncHTTPClient: "Faultline Reporter (log, uploader sending from it), AsyncHTTPClient"
            case .floor: "floor: URLSession posting the prebuilt gzip envelope, 4 in flight"
            case .floorAsyncHTTPClient: "floor: AsyncHTTPClient posting the prebuilt gzip envelope, 4 in flight"
            }
        }
    }

    func run() async throws {
        let (rounds, events) = (rounds, events)
        let compression = SampleFailure.CompressionLevels(
            transport: transportCompressionLevel, log: logCompressionLevel)
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
                    case .faultline, .faultlineAsyncHTTPClient:
                        seconds = try await Self.deliverWithFaultline(
                            burst, over: side.makeTransport(), compression: compression, to: ingest, since: before)
                    case .python:
                        seconds = try await Self.deliverWithPython(burst, peer: peer, to: ingest, since: before)
                    case .floor, .floorAsyncHTTPClient:
                        seconds = try await Self.post(
                            burst, event: event, compressionLevel: compression.transport, over: side.makeTransport(),
                            to: ingest)
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
            Queues (sentry-python's transport queue, Faultline's queue) hold \(events) events; Faultline's log holds them all.
            | side | median events/s | min | max | median ratio to sentry-python | median CPU ms/event |
            |---|---|---|---|---|---|
            """)
        for side in Side.allCases {
            guard let samples = rates[side] else { continue }
            let ratio = rates[.python].map { String(format: "%.1f", samples.median / $0.median) } ?? "–"
            let milliseconds = cpu[side].map { String(format: "%.3f", $0.median) } ?? "–"
            print("| \(side.name) | \(Self.row(samples)) | \(ratio) | \(milliseconds) |")
        }
        print(
            """
            targets: ≥ 12× sentry-python over AsyncHTTPClient, ≥ 5× over URLSession; CPU per event ≤ 2.5× the floor \
            of the same transport (the pipeline's durable log, rotation gzip and scrubbing included)
            """)
        guard let python = rates[.python] else { return }
        let measured = rates.map { side, samples in
            BenchmarkResult.Side(
                side.name,
                samples.values("events_per_second").merging(cpu[side]?.values("cpu_ms_per_event") ?? [:]) {
                    first, _ in first
                })
        }
        let regimes = [
            (
                side: Side.faultlineAsyncHTTPClient, floor: Side.floorAsyncHTTPClient, name: "asynchttpclient",
                target: 12.0
            ),
            (.faultline, .floor, "urlsession", 5.0),
        ]
        let results = regimes.compactMap { regime -> BenchmarkResult? in
            guard let faultline = rates[regime.side] else { return nil }
            let ratio = faultline.median / python.median
            let cpuRatio = cpu[regime.side].flatMap { own in cpu[regime.floor].map { own.median / $0.median } }
            let cpuText = cpuRatio.map { String(format: ", CPU %.2f× its floor", $0) } ?? ""
            return BenchmarkResult(
                name: "delivery-throughput/\(regime.name)",
                what: "delivery to a local endpoint, gzip on, over \(regime.name)",
                faultline: String(format: "%.0f events/s", faultline.median) + cpuText,
                peer: String(format: "sentry-python %.0f events/s", python.median), value: faultline.median,
                peerValue: python.median, ratio: String(format: "%.1f×", ratio),
                target: String(format: "≥ %.0f×, CPU ≤ 2.5× its floor", regime.target),
                met: ratio >= regime.target && (cpuRatio ?? .infinity) <= 2.5,
                sides: measured,
                parameters: [
                    "rounds": "\(rounds)", "events per burst": "\(events)",
                    "transport gzip level": transportCompressionLevel.map { "\($0)" } ?? "default",
                    "log gzip level": logCompressionLevel.map { "\($0)" } ?? "default",
                ])
        }
        try BenchmarkResult.write(results, to: json)
    }

    /// The CPU seconds this process and the Python peer's have used so far.
    static func cpuSeconds(_ peer: SentryPythonPeer) -> Double {
        ProcessCPU.ownSeconds + (ProcessCPU.seconds(ofProcess: peer.processIdentifier) ?? 0)
    }

    /// Captures `burst` failures with a new reporter sending over `transport` as fast as the caller can; returns the
    /// seconds until the endpoint has received them all.
    static func deliverWithFaultline(
        _ burst: Int, over transport: any EnvelopeTransport, compression: SampleFailure.CompressionLevels,
        to ingest: RunningRecordingIngest, since before: Int
    ) async throws -> Double {
        let logs = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-bench-\(UUID())")
        defer { try? FileManager.default.removeItem(at: logs) }
        let reporter = try await SampleFailure.reporter(
            logDirectory: logs, dsn: ingest.dsn(), maxQueueSize: burst, transport: transport, compression: compression)
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

    /// Posts the event's envelope, built and compressed once at `compressionLevel` (the uploader's default when `nil`,
    /// none at 0), `burst` times over `transport`; returns the seconds it took.
    static func post(
        _ burst: Int, event: Data, compressionLevel: Int32?, over transport: any EnvelopeTransport,
        to ingest: RunningRecordingIngest
    ) async throws -> Double {
        let dsn = try DSN(ingest.dsn())
        let level =
            compressionLevel
            ?? DeliveryConfiguration(dsn: dsn, outboxDirectory: FileManager.default.temporaryDirectory)
            .compressionLevel
        let envelope = Envelope(eventID: "0", eventJSON: event, dsn: dsn).serialized(sentAt: Date())
        let body = level == 0 ? envelope : Gzip.compress(envelope, level: level)
        let result = await EnvelopeLoad(concurrency: 4, transport: transport).run(
            Array(repeating: body, count: burst), to: dsn, compressed: level != 0)
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
