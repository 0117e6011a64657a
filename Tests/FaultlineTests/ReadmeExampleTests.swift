import Faultline
import FaultlineTestServer
import Foundation
import Synchronization
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The app-side names the README example assumes: its models and its UI hooks, which record what they were asked
// to show so that the test can check it.

struct Tokens: Decodable, Sendable {
    let accessToken: String
    let refreshToken: String
}

struct Envelope<T: Decodable & Sendable>: Decodable, Sendable {
    let success: Bool
    let data: T?
}

struct User: Decodable, Sendable {
    let id: Int
    let profileImage: String
}

let shown = Mutex<[String]>([])
func showProfile(_ user: User?) { shown.withLock { $0.append("profile \(user?.id ?? 0)") } }
func showAlert(_ message: String?) { shown.withLock { $0.append("alert \(message ?? "")") } }
func showLoginScreen() { shown.withLock { $0.append("login") } }
func log(_ failure: RequestFailure) { shown.withLock { $0.append("log \(failure.context.endpoint)") } }

// README: begin
// The server's rules: how it signs, refreshes, and says "your token expired".
struct BoletoAuthenticator: Authenticator {
    let refreshClient: APIClient  // a client without AuthenticationMiddleware

    func apply(_ credential: Tokens, to request: inout URLRequest) {
        request.setValue("Bearer \(credential.accessToken)", forHTTPHeaderField: "Authorization")
    }

    func refresh(_ credential: Tokens) async throws -> Tokens {
        let body = ["refreshToken": credential.refreshToken]
        let tokens = try await refreshClient.send(APIRequest<Envelope<Tokens>>(.post, "/auth/refresh", body: body))
        return tokens.value.data!
    }
    // isCredentialRejected(_:) defaults to a 401; seed 001's server would say `status == 400 && code == "E05"`.
}

func loadProfile(id: String, api: URL, saved: Tokens, refreshClient: APIClient) async {
    let refresher = TokenRefresher(authenticator: BoletoAuthenticator(refreshClient: refreshClient), credential: saved)
    let client = APIClient(baseURL: api) {
        $0.errorContract = .envelope()  // {"success", "data", "error": {"code", "message"}}, even on a 200
        $0.codeCatalog = ServerCodeCatalog(
            ranges: [40000...40099: .badRequest, 40100...40199: .unauthorized, 40400...40499: .notFound],
            exceptions: [40091: .notFound])
        $0.middlewares = [RetryMiddleware(), AuthenticationMiddleware(refresher: refresher)]
    }
    // One place for the UI to observe failures, and the login-screen trigger.
    Task { for await failure in await client.failures() { log(failure) } }
    Task { for await case .expired in await refresher.sessionEvents() { showLoginScreen() } }

    do throws(RequestFailure) {
        let user = try await client.send(APIRequest<Envelope<User>>(.get, "/users/{id}", pathParameters: ["id": id]))
        showProfile(user.value.data)
    } catch {
        switch error.reason {  // typed throws: `error` is a RequestFailure, no casting
        case .server(let failure) where failure.code == 40013:
            showAlert(failure.message)  // "여행 일정이 중복됩니다.", intact
        case .decoding(let failure):
            showAlert("Please update the app (\(failure.codingPath))")  // "data.profileImage"
        case .sessionExpired:
            break  // the session event above shows the login screen
        case .cancelled:
            break
        default:
            showAlert(error.localizedDescription)
        }
    }
}
// README: end

/// The README's usage example is this file's marked region, verbatim, and it runs as the README says.
@Suite(.serialized) struct ReadmeExampleTests {
    @Test func theReadmeExampleRunsAgainstTheSeedServer() async throws {
        try await SeedServer.run { server in
            let pair = await server.state.issueTokens(for: .boleto)
            let saved = Tokens(accessToken: pair.accessToken, refreshToken: pair.refreshToken)
            let api = server.baseURL.appendingPathComponent("boleto")
            let refreshClient = APIClient(baseURL: api) { $0.middlewares = [] }
            await server.state.expireAccessTokens(of: .boleto)
            shown.withLock { $0.removeAll() }

            // An expired access token is refreshed once; the next sign-in's user has no photo.
            await loadProfile(id: "42", api: api, saved: saved, refreshClient: refreshClient)
            let next = await server.state.issueTokens(for: .boleto)
            let signedIn = Tokens(accessToken: next.accessToken, refreshToken: next.refreshToken)
            await loadProfile(id: "40", api: api, saved: signedIn, refreshClient: refreshClient)
            // The failure reaches `log` through the client's failure stream, after `loadProfile` returns.
            let logged = try await eventually { shown.withLock { $0.contains("log GET /users/{id}") } }
            #expect(logged)

            let seen = shown.withLock { $0 }
            #expect(seen.contains("profile 42"))
            #expect(seen.contains("alert Please update the app (data.profileImage)"))
            #expect(seen.contains("log GET /users/{id}"))
            #expect(!seen.contains("login"))
            #expect(await server.state.refreshCount(of: .boleto) == 1)
        }
    }

    @Test func theReadmeShowsThisFilesExampleVerbatim() throws {
        let source = try String(
            contentsOf: Repository.file("Tests/FaultlineTests/ReadmeExampleTests.swift"), encoding: .utf8)
        let readme = try String(contentsOf: Repository.file("README.md"), encoding: .utf8)
        let example = try #require(
            source.components(separatedBy: "// README: begin\n").last?.components(separatedBy: "// README: end").first)

        // with the imports it needs, which this file has too: on Linux, URLRequest is in FoundationNetworking
        let lines = Set(source.split(separator: "\n"))
        for line in Self.readmeImports.split(separator: "\n") { #expect(lines.contains(line), "\(line)") }
        #expect(readme.contains("```swift\n\(Self.readmeImports)\n\(example)```"))
    }

    /// The imports the README's example starts with.
    static let readmeImports = """
        import Faultline
        import Foundation

        #if canImport(FoundationNetworking)
            import FoundationNetworking
        #endif

        """
}
