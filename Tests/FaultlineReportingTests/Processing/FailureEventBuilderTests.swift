import Faultline
import FaultlineRecords
import FaultlineReporting
import FaultlineTestServer
import Foundation
import SeedScenarios
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Classified failures from the seed server become Sentry events with the tags, fingerprints and scrubbed request
/// data the CLI and dashboards rely on.
@Suite struct FailureEventBuilderTests {
    static let secrets = (1...8).map { "planted-secret-\($0)" }

    /// Sends `request` through a Boleto client and returns the recorded request and failure.
    static func fail<T>(
        _ server: RunningSeedServer, _ request: APIRequest<T>
    ) async throws -> (request: URLRequest, failure: RequestFailure) {
        let recorder = RecordingMiddleware()
        let client = BoletoAPI.client(baseURL: server.baseURL, middlewares: [recorder])
        do {
            _ = try await client.send(request)
        } catch {
            if let recorded = recorder.failures.last { return recorded }
        }
        throw RecordingMiddleware.NothingRecorded()
    }

    @Test func aServerFailureIsTaggedAndGroupedByEndpointStatusAndCode() async throws {
        try await SeedServer.run { server in
            let tokens = await server.state.issueTokens(for: .boleto)
            let travel = APIRequest<EmptyResponse>(
                .post, "/boleto/travels", headers: ["Authorization": "Bearer \(tokens.accessToken)"])
            let (request, failure) = try await Self.fail(server, travel)

            let event = try #require(FailureEventBuilder(release: "boleto@2.4.1").event(for: failure, request: request))

            #expect(event.tags["error.kind"] == "server")
            #expect(event.tags["http.method"] == "POST")
            #expect(event.tags["http.route"] == "/boleto/travels")
            #expect(event.tags["http.status_code"] == "400")
            #expect(event.tags["server.code"] == "40013")
            #expect(event.tags["server.category"] == "bad_request")
            #expect(event.fingerprint == ["server", "POST /boleto/travels", "400", "40013"])
            #expect(event.exception?.values.first?.type == "ServerFailure")
            #expect(event.exception?.values.first?.value.contains("여행 일정이 중복됩니다.") == true)
            #expect(event.contexts["faultline"]?.objectValue?["server_message"] == "여행 일정이 중복됩니다.")
            #expect(event.contexts["response"]?.objectValue?["status_code"] == 400)
            #expect(event.release == "boleto@2.4.1")
            #expect(event.environment == "production")
            #expect(event.eventID.count == 32 && event.eventID.allSatisfy(\.isHexDigit))
        }
    }

    @Test func aDecodingFailureIsGroupedByTypeAndCodingPath() async throws {
        try await SeedServer.run { server in
            let tokens = await server.state.issueTokens(for: .boleto)
            var request = APIRequest<BoletoAPI.Envelope<BoletoAPI.User>>(
                .get, "/boleto/users/{id}", pathParameters: ["id": "20"])
            request.headers["Authorization"] = "Bearer \(tokens.accessToken)"
            let (sent, failure) = try await Self.fail(server, request)

            let event = try #require(FailureEventBuilder().event(for: failure, request: sent))

            #expect(event.tags["error.kind"] == "decoding")
            #expect(event.tags["decoding.path"] == "data.profileImage")
            #expect(event.tags["http.route"] == "/boleto/users/{id}")
            #expect(event.fingerprint == ["decoding", "Envelope<User>", "data.profileImage"])
            #expect(event.request?.url?.hasSuffix("/boleto/users/20") == true)
            #expect(event.request?.headers?["authorization"] == "[Filtered]")
        }
    }

    @Test func transportFailuresAreGroupedByFamilyAndCancellationsAreNotEvents() {
        let context = RequestContext(
            requestID: "r", method: .get, route: "/slow", url: URL(string: "http://127.0.0.1/slow")!, allowsRetry: true)
        let timeout = RequestFailure(.transport(TransportFailure(URLError(.timedOut))), context: context)

        let event = FailureEventBuilder().event(for: timeout, request: nil)

        #expect(event?.fingerprint == ["transport", "timeout"])
        #expect(event?.tags["transport.family"] == "timeout")
        #expect(event?.tags["http.status_code"] == nil)
        #expect(FailureEventBuilder().event(for: RequestFailure(.cancelled, context: context), request: nil) == nil)
    }

    @Test func secretsPlantedInHeadersQueryAndBodyNeverReachTheEventOrItsEnvelope() async throws {
        try await SeedServer.run { server in
            // Given a request carrying secrets everywhere a client puts them
            let secrets = Self.secrets
            let request = APIRequest<EmptyResponse>(
                .post, "/boleto/travels",
                query: [.init(name: "access_token", value: secrets[0]), .init(name: "page", value: "2")],
                headers: [
                    "Authorization": "Bearer \(secrets[1])", "Cookie": "sid=\(secrets[2])", "X-Api-Key": secrets[3],
                    "xi-api-key": secrets[4],
                ],
                body: PlantedBody(
                    password: secrets[5], profile: .init(refreshToken: secrets[6], nickname: "kim"),
                    items: [.init(apiKey: secrets[7])]))
            let (sent, failure) = try await Self.fail(server, request)

            // When it becomes an event, a log line and an envelope
            let event = try #require(FailureEventBuilder().event(for: failure, request: sent))
            let line = EventEncoder.encode(event)
            let envelope = Envelope(eventID: event.eventID, eventJSON: line, dsn: nil).serialized(sentAt: Date())

            // Then no secret is in any of them, and what is not secret is kept
            for secret in secrets {
                #expect(!String(decoding: line, as: UTF8.self).contains(secret), "\(secret) leaked into the log line")
                #expect(
                    !String(decoding: envelope, as: UTF8.self).contains(secret), "\(secret) leaked into the envelope")
            }
            #expect(event.request?.queryString == "access_token=[Filtered]&page=2")
            #expect(event.request?.data?.objectValue?["profile"]?.objectValue?["nickname"] == "kim")
            #expect(event.request?.headers?["content-type"] == "application/json")
        }
    }
}

struct PlantedBody: Encodable, Sendable {
    struct Profile: Encodable, Sendable {
        let refreshToken: String
        let nickname: String
    }

    struct Item: Encodable, Sendable {
        let apiKey: String

        enum CodingKeys: String, CodingKey { case apiKey = "api_key" }
    }

    let password: String
    let profile: Profile
    let items: [Item]
}
