import Faultline
import FaultlineTestServer
import Foundation
import SeedScenarios
import Testing

/// S9: the client offers a stream of classified failures that UI code can observe, without Combine.
@Suite struct FailureStreamTests {
    @Test func everySubscriberReceivesEachFailureInOrder() async throws {
        try await SeedServer.run { server in
            // Given two observers (say, a banner and an analytics hook)
            let (client, _) = SeedClients.boleto(server, tokens: await server.state.issueTokens(for: .boleto))
            var banner = await client.failures().makeAsyncIterator()
            var analytics = await client.failures().makeAsyncIterator()

            // When three requests fail in different ways
            _ = await failure { try await client.send(APIRequest<EmptyResponse>(.post, "/boleto/travels")) }
            _ = await failure {
                try await client.send(
                    APIRequest<BoletoAPI.Envelope<BoletoAPI.User>>(
                        .get, "/boleto/users/{id}",
                        pathParameters: ["id": "20"]))
            }
            _ = await failure {
                try await client.send(
                    APIRequest<EmptyResponse>(
                        .get, "/boleto/users/{id}",
                        pathParameters: ["id": "2000000"]))
            }

            // Then both see the same three classified failures, in order
            for observer in [0, 1] {
                var failures: [RequestFailure] = []
                for _ in 0..<3 {
                    if let next = await (observer == 0 ? banner.next() : analytics.next()) { failures.append(next) }
                }
                #expect(failures.map(\.serverFailure?.code) == [40013, nil, 40401])
                #expect(failures[1].decodingFailure?.codingPath == "data.profileImage")
                #expect(failures[2].serverFailure?.message == "해당 사용자가 존재하지 않습니다.")
            }
        }
    }
}
