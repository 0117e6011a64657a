import Faultline
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Seed 000's "Boleto" server: every body is an envelope, and business codes are finer than statuses.
package enum BoletoAPI {
    /// The envelope `{"success": Bool, "data": T?, "error": {"code": Int, "message": String}?}`.
    package struct Envelope<T: Decodable & Sendable>: Decodable, Sendable {
        /// Whether the call succeeded.
        package let success: Bool
        /// The payload of a successful call.
        package let data: T?
    }

    /// A user. `profileImage` is declared non-optional, as in seed 003, where users who deleted their photo got
    /// `null` and the app failed to decode them.
    package struct User: Decodable, Sendable, Equatable {
        package let id: Int
        package let name: String
        package let userType: String
        package let profileImage: String
    }

    /// The tokens a refresh returns.
    package struct Tokens: Decodable, Sendable {
        package let accessToken: String
        package let refreshToken: String
    }

    /// The server's error contract: the envelope, including `success: false` inside a 200.
    package static let errorContract = ErrorContract.envelope()

    /// The code ranges the client team agreed with the server team, plus the one code the table puts outside its
    /// range (`40091`, NOT_FOUND_SYS_STICKER, sent with a 404).
    package static let codeCatalog = ServerCodeCatalog(
        ranges: [
            40000...40099: .badRequest, 40100...40199: .unauthorized, 40300...40399: .forbidden,
            40400...40499: .notFound, 40500...40500: .methodNotAllowed, 40900...40999: .conflict,
            50000...50099: .internalError,
        ],
        exceptions: [40091: .notFound])

    /// A client for the Boleto server: its error contract and code catalogue, with `middlewares`.
    package static func client(baseURL: URL, middlewares: [any APIMiddleware]) -> APIClient {
        APIClient(baseURL: baseURL) {
            $0.errorContract = errorContract
            $0.codeCatalog = codeCatalog
            $0.middlewares = middlewares
        }
    }

    /// Signs requests with `Authorization: Bearer` and refreshes at `POST /boleto/auth/refresh`.
    /// The server rejects an expired token with `401` and code `40101`.
    package struct Authenticator: Faultline.Authenticator {
        private let refreshClient: APIClient

        /// Creates an authenticator that refreshes against `baseURL`.
        package init(baseURL: URL) {
            refreshClient = BoletoAPI.client(baseURL: baseURL, middlewares: [])
        }

        package func apply(_ credential: BearerTokens, to request: inout URLRequest) {
            request.setValue("Bearer \(credential.accessToken)", forHTTPHeaderField: "Authorization")
        }

        package func refresh(_ credential: BearerTokens) async throws -> BearerTokens {
            let request = APIRequest<Envelope<Tokens>>(
                .post, "/boleto/auth/refresh", body: ["refreshToken": credential.refreshToken])
            let tokens = try await refreshClient.send(request).value.data
            guard let tokens else { throw SeedAPIError.missingTokens(route: request.route) }
            return BearerTokens(accessToken: tokens.accessToken, refreshToken: tokens.refreshToken)
        }
    }
}
