import Faultline
import FaultlineTestServer
import Foundation
import SeedScenarios
import Testing

/// S7: a decoding failure names the type, the field, the kind of mismatch and the endpoint.
@Suite struct DecodingFailureTests {
    @Test func aNullProfileImageNamesItsCodingPath() async throws {
        try await SeedServer.run { server in
            // Given a user who deleted their photo (the server sends profileImage: null for every 20th user)
            let (client, _) = SeedClients.boleto(server, tokens: await server.state.issueTokens(for: .boleto))

            // When the app loads that user
            let failure = await failure {
                try await client.send(
                    APIRequest<BoletoAPI.Envelope<BoletoAPI.User>>(
                        .get, "/boleto/users/{id}",
                        pathParameters: ["id": "40"]))
            }

            // Then the failure alone names the field
            let decoding = try #require(failure?.decodingFailure)
            #expect(decoding.kind == .valueNotFound)
            #expect(decoding.codingPath == "data.profileImage")
            #expect(decoding.typeName == "Envelope<User>")
            #expect(decoding.expectedType == "String")
            #expect(failure?.context.endpoint == "GET /boleto/users/{id}")
            #expect(failure?.context.statusCode == 200)
            #expect(failure.map(String.init(describing:))?.contains("valueNotFound at 'data.profileImage'") == true)
        }
    }

    @Test func theFailureHitsTheShareOfUsersWithoutAPhotoAndNobodyElse() async throws {
        try await SeedServer.run { server in
            let (client, _) = SeedClients.boleto(server, tokens: await server.state.issueTokens(for: .boleto))

            var failedUsers: [Int] = []
            for id in 1...200 {
                let request = APIRequest<BoletoAPI.Envelope<BoletoAPI.User>>(
                    .get, "/boleto/users/{id}", pathParameters: ["id": String(id)])
                do throws(RequestFailure) {
                    _ = try await client.send(request)
                } catch {
                    #expect(error.decodingFailure?.codingPath == "data.profileImage")
                    failedUsers.append(id)
                }
            }

            #expect(failedUsers == Array(stride(from: 20, through: 200, by: 20)))
        }
    }

    @Test func aMissingKeyIsAppendedToThePath() throws {
        struct Profile: Decodable { let nickname: String }
        struct Wrapper: Decodable { let data: [Profile] }
        let body = Data(#"{"data":[{"nickname":"a"},{"name":"b"}]}"#.utf8)

        let failure = DecodingFailure(decodingError(Wrapper.self, body), decoding: Wrapper.self)

        #expect(failure.kind == .keyNotFound)
        #expect(failure.codingPath == "data[1].nickname")
        #expect(failure.expectedType == nil)
    }

    @Test func aTypeMismatchNamesTheExpectedType() throws {
        struct Item: Decodable { let count: Int }
        let body = Data(#"{"count":"three"}"#.utf8)

        let failure = DecodingFailure(decodingError(Item.self, body), decoding: Item.self)

        #expect(failure.kind == .typeMismatch)
        #expect(failure.codingPath == "count")
        #expect(failure.expectedType == "Int")
    }

    private func decodingError<T: Decodable>(_ type: T.Type, _ body: Data) -> any Error {
        do {
            _ = try JSONDecoder().decode(type, from: body)
            return CancellationError()
        } catch {
            return error
        }
    }
}
