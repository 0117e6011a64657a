import Hummingbird

/// Routes that fail the way production servers leak secrets: by repeating what the client sent in their error
/// message, a debug page or a field, where no header or key names it. Not authenticated; each echoes the request.
///
/// - `GET /echoing/session`: 401 `{"success":false,"data":null,"error":{"code":50001,"message":"invalid token
///   <the bearer token>"}}` with `Set-Cookie: sid=<X-Auth-Token>`.
/// - `GET` or `POST /echoing/debug`: 500 text/html, a debug page listing `api_key=<X-Api-Key>`, the `Authorization` and
///   `Cookie` headers and the query string.
/// - `GET /echoing/profile`: 200 `{"id":7,"tier":"<Authorization>"}`, a tier no client can decode.
struct EchoingRoutes {
    private struct Profile: Encodable, Sendable {
        let id: Int
        let tier: String
    }

    func add(to router: Router<BasicRequestContext>) {
        let echoing = router.group("echoing")
        echoing.get("session", use: session)
        echoing.get("debug", use: debug)
        echoing.post("debug", use: debug)
        echoing.get("profile", use: profile)
    }

    /// `GET /echoing/session`: the rejected token in the error message, and a cookie set on the error.
    private func session(_ request: Request, context: BasicRequestContext) -> Response {
        let authorization = request.headers[.authorization] ?? ""
        let token = authorization.hasPrefix("Bearer ") ? String(authorization.dropFirst(7)) : authorization
        let body = #"{"success":false,"data":null,"error":{"code":50001,"message":"invalid token \#(token)"}}"#
        var headers: HTTPFields = [:]
        headers[.setCookie] = "sid=\(request.headers[.xAuthToken] ?? ""); Path=/; HttpOnly"
        return .text(body, contentType: ContentType.json, status: .unauthorized, headers: headers)
    }

    /// `GET` or `POST /echoing/debug`: a framework's debug page that prints the request.
    private func debug(_ request: Request, context: BasicRequestContext) -> Response {
        let page = """
            <html><body><h1>500 Internal Server Error</h1><pre>
            debug: api_key=\(request.headers[.xAPIKey] ?? "")
            Authorization: \(request.headers[.authorization] ?? "")
            Cookie: \(request.headers[.cookie] ?? "")
            QUERY_STRING: \(request.uri.query ?? "")
            </pre></body></html>
            """
        return .text(page, contentType: ContentType.html, status: .internalServerError)
    }

    /// `GET /echoing/profile`: the caller's credential where the profile's tier should be.
    private func profile(_ request: Request, context: BasicRequestContext) throws -> Response {
        try .json(Profile(id: 7, tier: request.headers[.authorization] ?? ""))
    }
}

extension HTTPFields.Element.Name {
    fileprivate static let xAuthToken = Self("X-Auth-Token")!
    fileprivate static let xAPIKey = Self("X-Api-Key")!
}
