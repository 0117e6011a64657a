import Hummingbird

/// `/flaky/{key}?failures=N&status=S&retryAfter=R` (GET, POST, PUT, PATCH or DELETE): the first N requests for a key
/// (1 by default) fail with status S (503 by default), `{"error": "try later"}` and, when R is given,
/// `Retry-After: R` verbatim (seconds or an HTTP-date); later ones answer `200 {"ok": true, "attempt": <count>}`.
/// Every request counts, even one with a parameter out of range (`400` INVALID_PARAMETER_FORMAT).
struct FlakyRoutes {
    private struct Failure: Encodable, Sendable {
        let error = "try later"
    }

    private struct Success: Encodable, Sendable {
        let ok = true
        let attempt: Int
    }

    let state: SeedServerState

    func add(to router: Router<BasicRequestContext>) {
        for method in [HTTPRequest.Method.get, .post, .put, .patch, .delete] {
            router.on("flaky/{key}", method: method, use: flaky)
        }
    }

    private func flaky(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let attempt = await state.recordFlakyRequest(key: context.parameters.get("key") ?? "")
        guard
            let failures = request.integerQueryParameter("failures", default: 1, in: 0...Int.max),
            let status = request.integerQueryParameter("status", default: 503, in: 200...599)
        else { return try .boletoFailure(.invalidParameterFormat) }
        guard attempt > failures else {
            var headers: HTTPFields = [:]
            headers[.retryAfter] = request.uri.queryParameters.get("retryAfter")
            return try .json(Failure(), status: HTTPResponse.Status(code: status), headers: headers)
        }
        return try .json(Success(attempt: attempt))
    }
}
