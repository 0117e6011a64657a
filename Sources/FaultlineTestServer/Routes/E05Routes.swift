import Hummingbird

/// Seed 001's server under `/e05`: it answers only 200, 400 and 500, and its errors are a flat
/// `{"errorCode": "E0x"}`. An expired token is `400` E05, an unknown or missing one `400` E02, a refused refresh
/// token `400` E06, a malformed parameter `400` E01, and a crash `500` E99.
struct E05Routes {
    private struct RefreshRequest: Decodable {
        let refreshToken: String
    }

    private struct Tokens: Encodable, Sendable {
        let accessToken: String
        let refreshToken: String
    }

    private struct Failure: Encodable, Sendable {
        let errorCode: String
    }

    private struct Post: Encodable, Sendable {
        let id: Int
        let title: String
    }

    let state: SeedServerState

    func add(to router: Router<BasicRequestContext>) {
        let e05 = router.group("e05")
        e05.post("auth/refresh", use: refresh)
        e05.get("crash", use: crash)
        e05.group()
            .add(middleware: AccessTokenGate(tenant: .e05, state: state, rejectionResponse: Self.rejection))
            .get("posts/{id}", use: post)
    }

    private static func failure(_ errorCode: String, status: HTTPResponse.Status = .badRequest) throws -> Response {
        try .json(Failure(errorCode: errorCode), status: status)
    }

    private static func rejection(_ rejection: AccessTokenRejection) throws -> Response {
        switch rejection {
        case .expired: try failure("E05")
        case .unknown, .missing: try failure("E02")
        }
    }

    /// `POST /e05/auth/refresh` with `{"refreshToken": …}`: a new pair, or `400` E06.
    private func refresh(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let body = await request.decodedJSONBody(as: RefreshRequest.self)
        guard let pair = try await state.refresh(presenting: body?.refreshToken, to: .e05) else {
            return try Self.failure("E06")
        }
        return try .json(Tokens(accessToken: pair.accessToken, refreshToken: pair.refreshToken))
    }

    /// `GET /e05/posts/{id}`: the post, or `400` E01 for an id that is not an integer.
    private func post(_ request: Request, context: BasicRequestContext) throws -> Response {
        guard let id = context.parameters.get("id", as: Int.self) else { return try Self.failure("E01") }
        return try .json(Post(id: id, title: "post-\(id)"))
    }

    /// `GET /e05/crash`: always `500` E99.
    private func crash(_ request: Request, context: BasicRequestContext) throws -> Response {
        try Self.failure("E99", status: .internalServerError)
    }
}
