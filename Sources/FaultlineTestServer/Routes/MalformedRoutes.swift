import Hummingbird

/// `GET /malformed/{kind}?status=N`: a ``MalformedBody`` with status N (500 by default), for the client's handling of
/// bodies that match no contract. An unknown kind is `404` NOT_FOUND_END_POINT, a status outside 200...599 `400`
/// INVALID_PARAMETER_FORMAT.
struct MalformedRoutes {
    func add(to router: Router<BasicRequestContext>) {
        router.get("malformed/{kind}", use: malformed)
    }

    private func malformed(_ request: Request, context: BasicRequestContext) throws -> Response {
        guard let kind = context.parameters.get("kind", as: MalformedBody.self) else {
            return try .boletoFailure(.endpointNotFound)
        }
        guard let status = request.integerQueryParameter("status", default: 500, in: 200...599) else {
            return try .boletoFailure(.invalidParameterFormat)
        }
        return kind.response(status: HTTPResponse.Status(code: status))
    }
}
