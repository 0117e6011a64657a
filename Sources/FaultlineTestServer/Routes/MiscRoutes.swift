import Hummingbird

/// Routes outside the seed tenants, none authenticated: a health check, a proxy's HTML 502, a slow route, an echo
/// of the request, and a fixed item for the benchmark.
struct MiscRoutes {
    private struct Echo: Encodable, Sendable {
        let method: String
        let path: String
        let query: String
        let headers: [String: String]
    }

    private struct SlowAnswer: Encodable, Sendable {
        let ok = true
    }

    private static let defaultSlowMilliseconds = 1000
    private static let maximumSlowMilliseconds = 30_000

    private static let badGatewayPage = """
        <html>
        <head><title>502 Bad Gateway</title></head>
        <body>
        <center><h1>502 Bad Gateway</h1></center>
        <hr><center>nginx/1.25.3</center>
        </body>
        </html>

        """

    func add(to router: Router<BasicRequestContext>) {
        router.get("health", use: health)
        router.get("proxy/users/{id}", use: badGateway)
        router.get("slow", use: slow)
        for method in [HTTPRequest.Method.get, .post, .put, .patch, .delete] {
            router.on("echo", method: method, use: echo)
        }
        router.get("bench/item", use: benchItem)
    }

    /// `GET /health`: `ok`.
    private func health(_ request: Request, context: BasicRequestContext) -> Response {
        .text("ok")
    }

    /// `GET /proxy/users/{id}`: the HTML page nginx sends when the API behind it is down.
    private func badGateway(_ request: Request, context: BasicRequestContext) -> Response {
        .text(Self.badGatewayPage, contentType: ContentType.nginxHTML, status: .badGateway)
    }

    /// `GET /slow?ms=N`: waits N milliseconds (1000 by default, at most 30_000) then answers `{"ok": true}`; stops
    /// waiting when the client hangs up.
    private func slow(_ request: Request, context: BasicRequestContext) async throws -> Response {
        guard
            let milliseconds = request.integerQueryParameter(
                "ms", default: Self.defaultSlowMilliseconds, in: 0...Int.max)
        else { return try .boletoFailure(.invalidParameterFormat) }
        let delay = Duration.milliseconds(min(milliseconds, Self.maximumSlowMilliseconds))
        try await request.body.consumeWithCancellationOnInboundClose { _ in try await Task.sleep(for: delay) }
        return try .json(SlowAnswer())
    }

    /// `/echo` with any common method: what the client sent, headers keyed by lowercased name (`Host` included),
    /// repeated headers joined with `, `.
    private func echo(_ request: Request, context: BasicRequestContext) throws -> Response {
        var headers: [String: String] = [:]
        headers["host"] = request.head.authority
        for field in request.headers {
            let name = field.name.canonicalName
            headers[name] = headers[name].map { "\($0), \(field.value)" } ?? field.value
        }
        return try .json(
            Echo(
                method: request.method.rawValue, path: request.uri.path, query: request.uri.query ?? "",
                headers: headers))
    }

    /// `GET /bench/item`: ``BenchItem/fixture``.
    private func benchItem(_ request: Request, context: BasicRequestContext) throws -> Response {
        try .json(BenchItem.fixture)
    }
}
