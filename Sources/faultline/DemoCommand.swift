import ArgumentParser
import FaultlineTestServer
import Foundation
import SeedScenarios

/// `faultline demo`: starts the embedded seed-contract server on loopback and shows how Faultline's client
/// classifies each of the seed posts' failures.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run the seed scenarios against an embedded test server and print each classified failure.")

    func run() async throws {
        try await SeedServer.run { server in
            print("Faultline demo: seed-contract server on \(server.baseURL.absoluteString)\n")
            await SeedDemo(server: server).run { line in
                print("\(line.scenario.padding(toLength: 4, withPad: " ", startingAt: 0))\(line.action)")
                print("    → \(line.outcome)")
            }
        }
    }
}
