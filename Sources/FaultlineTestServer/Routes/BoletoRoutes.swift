import Hummingbird

/// Seed 000's "Boleto" server under `/boleto`: every body is an envelope, statuses and codes come from
/// ``BoletoErrorCode``. An expired token is `401` 40101, an unknown one `401` 40102, and a missing
/// `Authorization` header `404` 40401.
struct BoletoRoutes {
    private struct RefreshRequest: Decodable {
        let refreshToken: String
    }

    private struct Tokens: Encodable, Sendable {
        let accessToken: String
        let refreshToken: String
    }

    let state: SeedServerState

    func add(to router: Router<BasicRequestContext>) {
        let boleto = router.group("boleto")
        boleto.post("auth/refresh", use: refresh)
        boleto.get("errors/{name}", use: errorRow)
        boleto.group()
            .add(middleware: AccessTokenGate(tenant: .boleto, state: state, rejectionResponse: Self.rejection))
            .get("users/{id}", use: user)
            .post("travels", use: createTravel)
            .patch("travels/{id}", use: updateTravel)
            .get("stickers/{code}", use: sticker)
    }

    private static func rejection(_ rejection: AccessTokenRejection) throws -> Response {
        switch rejection {
        case .expired: try .boletoFailure(.expiredToken)
        case .unknown: try .boletoFailure(.invalidToken)
        case .missing: try .boletoFailure(.missingAuthorizationHeader)
        }
    }

    /// `POST /boleto/auth/refresh` with `{"refreshToken": …}`: a new pair, or `401` 40101 for any refused token.
    private func refresh(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let body = await request.decodedJSONBody(as: RefreshRequest.self)
        guard let pair = try await state.refresh(presenting: body?.refreshToken, to: .boleto) else {
            return try .boletoFailure(.expiredToken)
        }
        return try .boletoSuccess(Tokens(accessToken: pair.accessToken, refreshToken: pair.refreshToken))
    }

    /// `GET /boleto/errors/{name}`: the table row of that name, as the server would send it.
    private func errorRow(_ request: Request, context: BasicRequestContext) throws -> Response {
        let row = context.parameters.get("name").flatMap(BoletoErrorCode.named) ?? .endpointNotFound
        return try .boletoFailure(row)
    }

    /// `GET /boleto/users/{id}`: the user, `400` 40002 for an id that is not an integer, `404` 40401 for one that
    /// does not exist; after the delay the state sets for the id (``SeedServerState/setUserDelay(_:forEvery:)``).
    private func user(_ request: Request, context: BasicRequestContext) async throws -> Response {
        guard let id = context.parameters.get("id", as: Int.self) else {
            return try .boletoFailure(.invalidParameterFormat)
        }
        guard BoletoUser.existingIDs.contains(id) else { return try .boletoFailure(.userNotFound) }
        if let delay = await state.userDelay(for: id) { try await Task.sleep(for: delay) }
        return try .boletoSuccess(BoletoUser(id: id))
    }

    /// `POST /boleto/travels`: always `400` 40013, the travel overlaps another.
    private func createTravel(_ request: Request, context: BasicRequestContext) throws -> Response {
        try .boletoFailure(.travelOverlap)
    }

    /// `PATCH /boleto/travels/{id}`: always `403` 40304, the travel is locked.
    private func updateTravel(_ request: Request, context: BasicRequestContext) throws -> Response {
        try .boletoFailure(.travelAlreadyLocked)
    }

    /// `GET /boleto/stickers/{code}`: a failure inside a `200`, error 40903.
    private func sticker(_ request: Request, context: BasicRequestContext) throws -> Response {
        try .boletoFailure(.duplicatedSystemStickerCode, status: .ok)
    }
}
