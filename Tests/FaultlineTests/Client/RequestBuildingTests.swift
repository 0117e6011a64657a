import Faultline
import FaultlineTestServer
import Foundation
import Testing

/// What the client puts on the wire: the filled-in route, query, headers and JSON body.
@Suite struct RequestBuildingTests {
    struct Echo: Decodable, Sendable {
        let method: String
        let path: String
        let query: String
        let headers: [String: String]
    }

    @Test func theRouteTemplateIsFilledAndEncodedAndTheContextKeepsTheTemplate() async throws {
        try await SeedServer.run { server in
            let client = APIClient(baseURL: server.baseURL) { $0.headers["X-App"] = "boleto" }

            let response = try await client.send(
                APIRequest<Echo>(
                    .get, "/{route}",
                    pathParameters: ["route": "echo"], query: [.init(name: "q", value: "제주 여행")],
                    headers: ["X-App": "override"]))

            #expect(response.value.method == "GET")
            #expect(response.value.path == "/echo")
            #expect(response.value.query == "q=%EC%A0%9C%EC%A3%BC%20%EC%97%AC%ED%96%89")
            #expect(response.value.headers["x-app"] == "override")
            #expect(response.value.headers["accept"] == "application/json")
            #expect(response.value.headers["user-agent"]?.hasPrefix("Faultline/") == true)
            #expect(response.context.route == "/{route}")
            #expect(response.context.endpoint == "GET /{route}")
            #expect(response.context.requestID.count == 32)
        }
    }

    @Test func aRequestsHeaderReplacesTheClientsOfTheSameNameInAnyCase() async throws {
        try await SeedServer.run { server in
            let client = APIClient(baseURL: server.baseURL) { $0.headers["X-App"] = "boleto" }

            let response = try await client.send(
                APIRequest<Echo>(.get, "/echo", headers: ["x-app": "override", "ACCEPT": "application/problem+json"]))

            // The server joins fields sent twice with ", ": each is sent once, with the request's value.
            #expect(response.value.headers["x-app"] == "override")
            #expect(response.value.headers["accept"] == "application/problem+json")
            #expect(response.value.headers["user-agent"]?.hasPrefix("Faultline/") == true)
        }
    }

    @Test func placeholderValuesAreEncodedAsOneSegmentAndRouteLiteralsAsAPath() async throws {
        try await SeedServer.run { server in
            let client = APIClient(baseURL: server.baseURL)

            let failure = await failure {
                try await client.send(
                    APIRequest<EmptyResponse>(
                        .get, "/files by name/{name}/{id}", pathParameters: ["name": "a/b c?d#e", "id": "제주"]))
            }

            let base = server.baseURL.absoluteString
            #expect(failure?.context.statusCode == 404)
            #expect(
                failure?.context.url.absoluteString
                    == base + "/files%20by%20name/a%2Fb%20c%3Fd%23e/%EC%A0%9C%EC%A3%BC")
            #expect(failure?.context.route == "/files by name/{name}/{id}")
        }
    }

    @Test func aPlaceholderWithoutAValueFailsBeforeAnythingIsSent() async throws {
        try await SeedServer.run { server in
            let client = APIClient(baseURL: server.baseURL)

            let failure = await failure {
                try await client.send(
                    APIRequest<EmptyResponse>(.get, "/users/{id}/orders/{order}", pathParameters: ["id": "7"]))
            }

            guard case .transport(let transport) = failure?.reason else {
                Issue.record("expected a transport failure, got \(String(describing: failure))")
                return
            }
            #expect(transport.family == .invalidRequest)
            #expect(transport.message.contains("/users/{id}/orders/{order}"))
            #expect(failure?.context.statusCode == nil)
        }
    }

    @Test func aBodyIsSentAsJSON() async throws {
        try await SeedServer.run { server in
            let client = APIClient(baseURL: server.baseURL)

            let response = try await client.send(APIRequest<Echo>(.post, "/echo", body: ["title": "여행"]))

            #expect(response.value.method == "POST")
            #expect(response.value.headers["content-type"] == "application/json")
        }
    }

    @Test func aBaseURLWithAPathPrefixKeepsIt() async throws {
        try await SeedServer.run { server in
            let client = APIClient(baseURL: server.baseURL.appendingPathComponent("boleto"))

            let failure = await failure {
                try await client.send(
                    APIRequest<EmptyResponse>(.get, "/errors/{name}", pathParameters: ["name": "EVENT_EXPIRED"]))
            }

            #expect(failure?.serverFailure?.code == 40015)
            #expect(failure?.context.url.path == "/boleto/errors/EVENT_EXPIRED")
        }
    }
}
