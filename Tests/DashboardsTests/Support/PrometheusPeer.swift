import FaultlineTestServer
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Debian's Prometheus, scraping targets on loopback every second, with its data in a directory of the test's own.
final class PrometheusPeer: Sendable {
    /// Why Prometheus did not start or answer.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let baseURL: URL
    private let process: ExternalProcess

    /// Starts Prometheus scraping `targets` (job name → `127.0.0.1:port`) and waits until it is ready.
    init(targets: [String: String], directory: URL) async throws {
        let executable = URL(fileURLWithPath: "/usr/bin/prometheus")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nscrape_configs:\n"
        for (job, target) in targets.sorted(by: { $0.key < $1.key }) {
            configuration += "  - job_name: \(job)\n    static_configs:\n      - targets: ['\(target)']\n"
        }
        let configurationFile = directory.appendingPathComponent("prometheus.yml")
        try Data(configuration.utf8).write(to: configurationFile)
        let port = try LoopbackPort.unused()
        process = try await ExternalProcess.start(
            executable,
            [
                "--config.file=\(configurationFile.path)",
                "--storage.tsdb.path=\(directory.appendingPathComponent("data").path)",
                "--web.listen-address=127.0.0.1:\(port)",
            ], output: .discarded)
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
        guard await HTTPReadiness.wait(for: baseURL.appendingPathComponent("-/ready"), timeout: patience) else {
            stop()
            let said = (try? await process.exit())?.errors ?? ""
            throw Failure(description: "Prometheus was not ready within \(patience): \(said.suffix(2000))")
        }
    }

    /// Stops it (SIGTERM), without waiting for it to exit.
    func stop() {
        process.terminate()
    }

    /// The series `expression` gives over the last `seconds`, one sample a second, through the HTTP API
    /// (`/api/v1/query_range`); each series is its labels and its values.
    func series(_ expression: String, overLast seconds: Int) async throws -> [(
        labels: [String: String], values: [Double]
    )] {
        let end = Date().timeIntervalSince1970
        var components = URLComponents(
            url: baseURL.appendingPathComponent("api/v1/query_range"), resolvingAgainstBaseURL: false)!
        components.queryItems = [
            .init(name: "query", value: expression), .init(name: "start", value: String(end - Double(seconds))),
            .init(name: "end", value: String(end)), .init(name: "step", value: "1"),
        ]
        let (data, _) = try await URLSession.shared.data(from: components.url!)
        let answer = try JSONDecoder().decode(QueryRangeAnswer.self, from: data)
        guard answer.status == "success", let result = answer.data?.result else {
            throw Failure(description: "Prometheus refused \(expression): \(answer.error ?? answer.status)")
        }
        return result.map { series in
            (series.metric, series.values.compactMap { Double($0.value) })
        }
    }
}

/// The answer of `/api/v1/query_range`: a matrix of series, each with `[time, "value"]` pairs.
private struct QueryRangeAnswer: Decodable {
    struct Series: Decodable {
        let metric: [String: String]
        let values: [Sample]
    }

    struct Sample: Decodable {
        let value: String

        init(from decoder: any Decoder) throws {
            var pair = try decoder.unkeyedContainer()
            _ = try pair.decode(Double.self)
            value = try pair.decode(String.self)
        }
    }

    struct Payload: Decodable {
        let result: [Series]
    }

    let status: String
    let data: Payload?
    let error: String?
}
