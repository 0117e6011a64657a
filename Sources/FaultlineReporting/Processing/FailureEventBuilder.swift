import Faultline
import FaultlineRecords
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Turns a classified failure into a Sentry event: exception, tags, fingerprint, scrubbed request and response.
/// Secrets inside its texts (a server message that echoes a token, a body preview with debug output) are left to the
/// scrubber's value patterns, which the ``Reporter`` applies to every text of the whole event once the scope is added
/// (breadcrumbs excepted: each was scrubbed as it entered the scope).
///
/// Tags every event carries, so that the CLI and dashboards can rely on them: `error.kind` (`transport`, `server`,
/// `decoding`, `session_expired`), `http.method`, `http.route` (the template, never the raw URL), and when known
/// `http.status_code`, `server.code`, `server.category`, `transport.family`, `decoding.path`.
///
/// Default fingerprints: kind + endpoint + status + business code for server failures; type + coding path for
/// decoding failures; the failure family for transport failures; the cause for session expiry.
package struct FailureEventBuilder: Sendable {
    /// What is removed before anything is written or sent.
    package var scrubber: Scrubber
    /// The release, such as `boleto@2.4.1 (310)`.
    package var release: String?
    /// The distribution, which tells builds of one release apart.
    package var dist: String?
    /// The environment; `production` by default.
    package var environment: String
    /// The host's name, Sentry's `server_name`.
    package var serverName: String?

    /// Creates a builder.
    package init(
        scrubber: Scrubber = Scrubber(), release: String? = nil, dist: String? = nil,
        environment: String = "production",
        serverName: String? = nil
    ) {
        self.scrubber = scrubber
        self.release = release
        self.dist = dist
        self.environment = environment
        self.serverName = serverName
    }

    /// The event for `failure`, or `nil` for a cancellation, which is never an error.
    ///
    /// - Parameters:
    ///   - failure: The classified failure.
    ///   - request: The request as it was sent, for its headers and body (scrubbed here).
    ///   - date: When the failure happened.
    ///   - eventID: The event's identifier; a new one by default.
    package func event(
        for failure: RequestFailure, request: URLRequest?, date: Date = Date(), eventID: String? = nil
    ) -> SentryEvent? {
        guard let kind = FailureKind(failure.reason) else { return nil }
        var event = SentryEvent(eventID: eventID ?? RandomID.make(), level: .error, date: date)
        event.release = release
        event.dist = dist
        event.environment = environment
        let context = failure.context
        event.tags = [
            "error.kind": kind.rawValue, "http.method": context.method.rawValue, "http.route": context.route,
        ]
        if let status = context.statusCode { event.tags["http.status_code"] = String(status) }
        event.fingerprint = Self.fingerprint(for: failure)
        var details: [String: JSONValue] = [
            "request_id": .string(context.requestID), "attempt": .int(context.attempt),
            "endpoint": .string(context.endpoint),
        ]
        let exceptionType: String
        let exceptionValue: String
        switch failure.reason {
        case .server(let server):
            exceptionType = "ServerFailure"
            exceptionValue = "\(context.endpoint): \(server)"
            if let code = server.code {
                event.tags["server.code"] = code.rawValue
                details["server_code"] = .string(code.rawValue)
            }
            if let category = server.category { event.tags["server.category"] = category.rawValue }
            if let message = server.message { details["server_message"] = .string(message) }
            if let preview = server.bodyPreview { details["body_preview"] = .string(preview.description) }
            event.contexts["response"] = response(server)
        case .decoding(let decoding):
            exceptionType = "DecodingFailure"
            exceptionValue = "\(context.endpoint): \(decoding)"
            event.tags["decoding.path"] = decoding.codingPath.isEmpty ? "(root)" : decoding.codingPath
            details["decoding"] = [
                "type": .string(decoding.typeName), "path": .string(decoding.codingPath),
                "kind": .string(decoding.kind.rawValue),
                "expected_type": decoding.expectedType.map(JSONValue.string) ?? .null,
                "debug_description": .string(decoding.debugDescription),
            ]
        case .transport(let transport):
            exceptionType = "TransportFailure"
            exceptionValue = "\(context.endpoint): \(transport)"
            event.tags["transport.family"] = transport.family.rawValue
        case .sessionExpired(let expiry):
            exceptionType = "SessionExpired"
            exceptionValue = "\(context.endpoint): \(expiry)"
            details["expiry_id"] = .string(expiry.id.uuidString.lowercased())
        case .cancelled:
            return nil
        }
        event.exception = .init([
            .init(
                type: exceptionType, value: exceptionValue,
                mechanism: .init(type: "auto.http.faultline", handled: true))
        ])
        event.contexts["faultline"] = .object(details)
        event.request = scrubbedRequest(request, context: context)
        return event
    }

    /// The fingerprint ``event(for:request:date:eventID:)`` gives `failure`, without building the event: what the
    /// reporter's ``Reporter/Options/fingerprintLimit`` counts by. `nil` for a cancellation.
    package static func fingerprint(for failure: RequestFailure) -> [String]? {
        guard let kind = FailureKind(failure.reason) else { return nil }
        switch failure.reason {
        case .server(let server):
            return [
                kind.rawValue, failure.context.endpoint, String(server.statusCode), server.code?.rawValue ?? "-",
            ]
        case .decoding(let decoding): return [kind.rawValue, decoding.typeName, decoding.codingPath]
        case .transport(let transport): return [kind.rawValue, transport.family.rawValue]
        case .sessionExpired(let expiry): return [kind.rawValue, causeName(expiry.cause)]
        case .cancelled: return nil
        }
    }

    private func scrubbedRequest(_ request: URLRequest?, context: RequestContext) -> SentryEvent.Request {
        let url = scrubber.url(request?.url ?? context.url)
        let headers = request?.allHTTPHeaderFields.map(scrubber.headers)
        let body = request?.httpBody.flatMap {
            scrubber.body($0, contentType: request?.value(forHTTPHeaderField: "Content-Type"))
        }
        return SentryEvent.Request(
            method: context.method.rawValue, url: url.url, queryString: url.queryString, headers: headers, data: body)
    }

    private func response(_ failure: ServerFailure) -> JSONValue {
        var headers: [String: String] = [:]
        for case (let name as String, let value as String) in failure.response.allHeaderFields {
            headers[name] = value
        }
        return [
            "type": "response", "status_code": .int(failure.statusCode), "body_size": .int(failure.bodySize),
            "headers": .object(scrubber.headers(headers).mapValues(JSONValue.string)),
        ]
    }

    private static func causeName(_ cause: SessionExpiry.Cause) -> String {
        switch cause {
        case .refreshFailed: "refresh_failed"
        case .refreshLimitExceeded: "refresh_limit_exceeded"
        case .missingCredential: "missing_credential"
        }
    }
}
