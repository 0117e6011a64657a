import Faultline
import FaultlineTestServer
import Foundation
import SeedScenarios
import Testing

/// S1: every non-2xx response becomes a typed failure with status, business code and the server's message.
@Suite struct ServerFailureTests {
    @Test func businessCodeAndKoreanMessageReachTheCallerIntact() async throws {
        try await SeedServer.run { server in
            // Given a signed-in Boleto client
            let (client, _) = SeedClients.boleto(server, tokens: await server.state.issueTokens(for: .boleto))

            // When creating a travel that overlaps another
            let failure = await failure {
                try await client.send(APIRequest<EmptyResponse>(.post, "/boleto/travels", body: ["title": "제주"]))
            }

            // Then the caller can switch on the code and show the message
            let server = try #require(failure?.serverFailure)
            #expect(server.statusCode == 400)
            #expect(server.code == 40013)
            #expect(server.message == "여행 일정이 중복됩니다.")
            #expect(server.category == .badRequest)
            #expect(failure?.errorDescription == "여행 일정이 중복됩니다.")
            #expect(failure?.context.endpoint == "POST /boleto/travels")
            #expect(failure?.context.statusCode == 400)
        }
    }

    @Test func everyRowOfTheSeedCodeTableIsClassifiedWithTheCategoryOfItsStatus() async throws {
        let categoryOfStatus: [Int: ServerCodeCatalog.Category] = [
            400: .badRequest, 401: .unauthorized, 403: .forbidden, 404: .notFound, 405: .methodNotAllowed,
            409: .conflict, 500: .internalError,
        ]
        try await SeedServer.run { server in
            // Given a client with the catalogue the client team agreed on, exceptions included
            let client = BoletoAPI.client(baseURL: server.baseURL, middlewares: [])
            #expect(BoletoErrorCode.all.count >= 45)
            for row in BoletoErrorCode.all {
                // When the server answers with that row
                let failure = await failure {
                    try await client.send(
                        APIRequest<EmptyResponse>(
                            .get, "/boleto/errors/{name}",
                            pathParameters: ["name": row.name]))
                }

                // Then status, code, message and category all match the table
                let server = try #require(failure?.serverFailure, "\(row.name)")
                #expect(server.statusCode == row.httpStatus, "\(row.name)")
                #expect(server.code?.intValue == row.code, "\(row.name)")
                #expect(server.message == row.message, "\(row.name)")
                #expect(server.category == categoryOfStatus[row.httpStatus], "\(row.name) \(row.code)")
            }
        }
    }

    @Test func aFailureInsideA200IsAServerFailure() async throws {
        try await SeedServer.run { server in
            let (client, _) = SeedClients.boleto(server, tokens: await server.state.issueTokens(for: .boleto))

            let failure = await failure {
                try await client.send(
                    APIRequest<BoletoAPI.Envelope<String>>(
                        .get, "/boleto/stickers/{code}",
                        pathParameters: ["code": "S-1"]))
            }

            let server = try #require(failure?.serverFailure)
            #expect(server.statusCode == 200)
            #expect(server.code == 40903)
            #expect(server.message == "중복된 시스템 스티커 코드입니다.")
            #expect(server.category == .conflict)
        }
    }

    @Test func anHTMLPageFromAProxyIsPreviewedNotParsed() async throws {
        try await SeedServer.run { server in
            let client = SeedClients.plain(server)

            let failure = await failure {
                try await client.send(
                    APIRequest<BoletoAPI.User>(
                        .get, "/proxy/users/{id}",
                        pathParameters: ["id": "7"]))
            }

            let server = try #require(failure?.serverFailure)
            #expect(server.statusCode == 502)
            #expect(server.serverError == nil)
            let preview = try #require(server.bodyPreview)
            #expect(preview.contentType?.hasPrefix("text/html") == true)
            #expect(preview.text.contains("502 Bad Gateway"))
            #expect(preview.totalBytes == server.bodySize)
            // the page's title is what the failure says; its markup stays in the preview
            #expect(preview.pageTitle == "502 Bad Gateway")
            #expect(server.description == "HTTP 502 page \"502 Bad Gateway\" (text/html, \(server.bodySize) bytes)")
            // 502 is retryable: the default policy tried three times before giving up
            #expect(failure?.context.attempt == 3)
        }
    }

    @Test func aDefaultClientReadsEachSeedShapeWithTheAutomaticContract() async throws {
        try await SeedServer.run { server in
            let client = APIClient(baseURL: server.baseURL) { $0.middlewares = [] }

            let envelope = await failure {
                try await client.send(APIRequest<EmptyResponse>(.get, "/boleto/errors/TRAVEL_ALREADY_LOCKED"))
            }
            let flat = await failure { try await client.send(APIRequest<EmptyResponse>(.get, "/e05/crash")) }

            #expect(envelope?.serverFailure?.code == 40304)
            #expect(envelope?.serverFailure?.message == "이미 잠긴 여행입니다.")
            #expect(flat?.serverFailure?.statusCode == 500)
            #expect(flat?.serverFailure?.code == "E99")
        }
    }
}
