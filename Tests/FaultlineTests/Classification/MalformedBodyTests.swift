import Faultline
import FaultlineTestServer
import Foundation
import SeedScenarios
import Testing

/// Bad input gets a clear classified failure: never a crash, never a hang, nothing lost.
@Suite struct MalformedBodyTests {
    static func client(_ server: RunningSeedServer) -> APIClient {
        APIClient(baseURL: server.baseURL) {
            $0.errorContract = BoletoAPI.errorContract
            $0.middlewares = []
        }
    }

    @Test(arguments: ["empty", "html", "non-utf8", "truncated-json", "huge", "huge-json"])
    func anErrorBodyThatDoesNotMatchTheContractIsAServerFailureWithAPreview(kind: String) async throws {
        try await SeedServer.run { server in
            let failure = await failure {
                try await Self.client(server).send(
                    APIRequest<EmptyResponse>(
                        .get, "/malformed/{kind}",
                        pathParameters: ["kind": kind]))
            }

            let server = try #require(failure?.serverFailure, "\(kind)")
            #expect(server.statusCode == 500)
            #expect(server.serverError == nil, "\(kind)")
            if kind == "empty" {
                #expect(server.bodyPreview == nil)
                #expect(server.bodySize == 0)
            } else {
                let preview = try #require(server.bodyPreview)
                #expect(preview.text.utf8.count <= 512)
                #expect(preview.totalBytes == server.bodySize)
                #expect(preview.containsInvalidUTF8 == (kind == "non-utf8"), "\(kind)")
                #expect(preview.isTruncated == (server.bodySize > 512), "\(kind)")
            }
            if kind.hasPrefix("huge") {
                #expect(server.bodySize >= 10 << 20)
            }
        }
    }

    @Test(arguments: ["empty", "html", "non-utf8", "truncated-json", "huge"])
    func aSuccessBodyThatIsNotJSONIsACorruptedDecodingFailure(kind: String) async throws {
        try await SeedServer.run { server in
            let failure = await failure {
                try await Self.client(server).send(
                    APIRequest<BoletoAPI.Envelope<BoletoAPI.User>>(
                        .get, "/malformed/{kind}", pathParameters: ["kind": kind],
                        query: [.init(name: "status", value: "200")]))
            }

            let decoding = try #require(failure?.decodingFailure, "\(kind)")
            #expect(decoding.kind == .dataCorrupted)
            #expect(decoding.typeName == "Envelope<User>")
            #expect(decoding.codingPath == "")
            #expect(failure?.context.statusCode == 200)
        }
    }
}
