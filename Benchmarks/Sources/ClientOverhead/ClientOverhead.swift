import ArgumentParser
import Faultline
import FaultlineTestServer
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Success-path overhead of Faultline's client with its default middleware over bare URLSession: the same 1 KB JSON
/// GET on loopback, decoded into the same type, in interleaved rounds so that drift on a noisy machine hits both sides.
@main
struct ClientOverhead: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "client-overhead",
        abstract: "Compare APIClient.send with bare URLSession.data(for:) + JSONDecoder on a 1 KB JSON GET.")

    @Option(help: "Interleaved rounds; each runs one batch of each side.")
    var rounds = 30

    @Option(help: "Sequential requests per batch.")
    var requests = 300

    @Option(help: "Write the results as JSON to this file.")
    var json: String?

    func run() async throws {
        let rounds = rounds
        let requests = requests
        let result = try await SeedServer.run { server in
            let url = server.baseURL.appendingPathComponent("bench/item")
            let bare = BareURLSession(url: url)
            let client = APIClient(baseURL: server.baseURL) { $0.session = URLSession(configuration: .ephemeral) }
            let request = APIRequest<BenchItem>(.get, "/bench/item")

            try await bare.batch(requests)
            _ = try await Self.batch(requests) { _ = try await client.send(request) }
            var bareTimes: [Duration] = []
            var clientTimes: [Duration] = []
            for round in 0..<rounds {
                let clientFirst = round.isMultiple(of: 2)
                if clientFirst {
                    clientTimes.append(try await Self.batch(requests) { _ = try await client.send(request) })
                }
                bareTimes.append(try await bare.batch(requests))
                if !clientFirst {
                    clientTimes.append(try await Self.batch(requests) { _ = try await client.send(request) })
                }
            }
            return Measurement(requests: requests, bare: bareTimes, client: clientTimes)
        }
        print(result.table)
        if let json {
            try result.json.write(to: URL(fileURLWithPath: json))
            print("results written to \(json)")
        }
    }

    static func batch(_ count: Int, _ body: () async throws -> Void) async throws -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<count { try await body() }
        return clock.now - start
    }
}

/// The body of `/bench/item`.
struct BenchItem: Decodable, Sendable {
    let id: Int
    let name: String
    let email: String
    let active: Bool
    let score: Double
    let tags: [String]
    let bio: String
}

/// The baseline: what an app does without Faultline.
struct BareURLSession {
    let url: URL
    let session = URLSession(configuration: .ephemeral)
    let decoder = JSONDecoder()

    func batch(_ count: Int) async throws -> Duration {
        try await ClientOverhead.batch(count) {
            let (data, response) = try await session.data(for: URLRequest(url: url))
            guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw URLError(.badServerResponse) }
            _ = try decoder.decode(BenchItem.self, from: data)
        }
    }
}
