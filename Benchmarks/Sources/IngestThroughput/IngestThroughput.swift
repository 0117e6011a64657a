import ArgumentParser
import BenchmarkSupport
import FaultlineReporting
import Foundation

/// `faultline serve`'s ingest throughput beside Bugsink's on the same envelopes: gzip-compressed error events from
/// the pipeline's builder and encoder, posted with a fixed number in flight, rounds interleaved. Every envelope has
/// its own event id, since both ingests store an id once. A refused envelope (Bugsink's quotas answer 429) stops the
/// benchmark: the rates would not compare the same work.
@main
struct IngestThroughput: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest-throughput", abstract: "Envelopes per second into faultline serve, beside Bugsink.")

    @Option(help: "Envelopes per round and side.")
    var envelopes = 1000

    @Option(help: "Timed rounds per side, after a warm-up round.")
    var rounds = 3

    @Option(help: "Requests in flight.")
    var concurrency = 8

    @Option(help: "The faultline executable; by default the one built beside this benchmark.")
    var faultline: String?

    @Option(help: "Write the results as JSON to this file.")
    var json: String?

    func run() async throws {
        let executable =
            faultline
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("faultline").path
        var corpus = LogCorpus(seed: 7)
        let load = EnvelopeLoad(concurrency: concurrency)
        let serve = try await IngestPeer.faultline(executable)
        defer { serve.stop() }
        let bugsink = try await IngestPeer.bugsink()
        defer { bugsink.stop() }
        var results: [String: [EnvelopeLoad.Result]] = [:]
        var bytes = 0
        for round in 0...rounds {
            let count = round == 0 ? envelopes / 10 : envelopes
            for peer in round.isMultiple(of: 2) ? [serve, bugsink] : [bugsink, serve] {
                let bodies = (0..<count).map { _ in
                    let event = corpus.nextEvent(at: Date())
                    return Gzip.compress(Envelope(eventID: event.id, eventJSON: event.json, dsn: nil).serialized())
                }
                let result = await load.run(bodies, to: peer.dsn)
                guard round > 0 else { continue }
                bytes = bodies.reduce(0) { $0 + $1.count } / bodies.count
                results[peer.name, default: []].append(result)
            }
        }
        let refusals = results.filter { $0.value.contains { !$0.refused.isEmpty } }.map(\.key)
        guard refusals.isEmpty else {
            throw IngestPeer.Failure(
                description:
                    "\(refusals.joined(separator: " and ")) refused envelopes: \(results.mapValues { $0.map(\.refused) })"
            )
        }
        try report(results, serve: serve.name, bugsink: bugsink.name, averageBytes: bytes)
    }

    private func report(
        _ results: [String: [EnvelopeLoad.Result]], serve: String, bugsink: String, averageBytes: Int
    ) throws {
        func rate(_ result: EnvelopeLoad.Result) -> Double { Double(result.accepted) / result.seconds }
        let serveRates = Samples((results[serve] ?? []).map(rate))
        let bugsinkRates = Samples((results[bugsink] ?? []).map(rate))
        print(
            """
            ingest-throughput: \(envelopes) gzip envelopes per round (one error event each, \(averageBytes) bytes \
            compressed on average), \(concurrency) requests in flight, \(rounds) interleaved rounds after a warm-up
            | side | median envelopes/s | min | max | ratio |
            |---|---|---|---|---|
            """)
        for (name, rates) in [(bugsink, bugsinkRates), (serve, serveRates)] {
            print(
                "| \(name) | \(String(format: "%.0f", rates.median)) | \(String(format: "%.0f", rates.sorted.first ?? 0)) | "
                    + "\(String(format: "%.0f", rates.sorted.last ?? 0)) | "
                    + "\(String(format: "%.1f", rates.median / bugsinkRates.median)) |")
        }
        let ratio = serveRates.median / bugsinkRates.median
        try BenchmarkResult.write(
            [
                BenchmarkResult(
                    name: "ingest-throughput", what: "ingest (faultline serve) from a load generator",
                    faultline: String(format: "%.0f envelopes/s", serveRates.median),
                    peer: String(format: "Bugsink %.0f envelopes/s", bugsinkRates.median), value: serveRates.median,
                    peerValue: bugsinkRates.median, ratio: String(format: "%.1f×", ratio), target: "≥ 10×",
                    met: ratio >= 10,
                    sides: [
                        .init(bugsink, bugsinkRates.values("envelopes_per_second")),
                        .init(serve, serveRates.values("envelopes_per_second")),
                    ],
                    parameters: [
                        "envelopes per round": "\(envelopes)", "rounds": "\(rounds)",
                        "in flight": "\(concurrency)", "average gzip bytes": "\(averageBytes)",
                    ])
            ], to: json)
    }
}
