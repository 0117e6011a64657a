import Faultline
import FaultlineTestServer
import Foundation
import SeedScenarios
import TestSupport
import Testing

/// Clients configured for the seed servers, as an app would configure them.
enum SeedClients {
    /// A Boleto client with retries (on a virtual clock) and bearer authentication.
    static func boleto(
        _ server: RunningSeedServer, tokens: TokenPair, refreshWindow: RefreshWindow = RefreshWindow()
    ) -> (client: APIClient, refresher: TokenRefresher<BoletoAPI.Authenticator>) {
        let refresher = TokenRefresher(
            authenticator: BoletoAPI.Authenticator(baseURL: server.baseURL), credential: BearerTokens(tokens),
            refreshWindow: refreshWindow)
        let client = BoletoAPI.client(
            baseURL: server.baseURL,
            middlewares: [RetryMiddleware(clock: FakeClock()), AuthenticationMiddleware(refresher: refresher)])
        return (client, refresher)
    }

    /// A client with the default configuration and retries on a virtual clock.
    static func plain(_ server: RunningSeedServer, clock: FakeClock = FakeClock()) -> APIClient {
        APIClient(baseURL: server.baseURL) { $0.middlewares = [RetryMiddleware(clock: clock)] }
    }
}

extension RequestFailure {
    /// The decoding failure, when the reason is one.
    var decodingFailure: DecodingFailure? {
        if case .decoding(let failure) = reason { return failure }
        return nil
    }

    /// The transport failure, when the reason is one.
    var transportFailure: TransportFailure? {
        if case .transport(let failure) = reason { return failure }
        return nil
    }

    /// The session expiry, when the reason is one.
    var sessionExpiry: SessionExpiry? {
        if case .sessionExpired(let expiry) = reason { return expiry }
        return nil
    }
}

/// Runs `body` and returns the failure it threw; records an issue (and returns `nil`) when it succeeded or threw
/// something else than a ``RequestFailure``.
func failure<T>(
    of body: () async throws -> T, sourceLocation: SourceLocation = #_sourceLocation
) async -> RequestFailure? {
    do {
        let value = try await body()
        Issue.record("expected a failure, got \(value)", sourceLocation: sourceLocation)
    } catch let failure as RequestFailure {
        return failure
    } catch {
        Issue.record("expected a RequestFailure, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}
