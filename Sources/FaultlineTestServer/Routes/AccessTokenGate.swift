import Hummingbird

/// Guards a tenant's authenticated routes: counts every request by the token it carried, passes valid tokens on,
/// and answers the others the way the tenant does.
struct AccessTokenGate: RouterMiddleware {
    typealias Context = BasicRequestContext

    let tenant: Tenant
    let state: SeedServerState
    /// The tenant's answer to a refused token.
    let rejectionResponse: @Sendable (AccessTokenRejection) throws -> Response

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if let rejection = await state.admit(accessToken: request.presentedAccessToken, to: tenant) {
            return try rejectionResponse(rejection)
        }
        return try await next(request, context)
    }
}
