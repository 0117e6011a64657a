#if OpenAPIRuntime
    import Faultline
    import Foundation
    import HTTPTypes
    import OpenAPIRuntime

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// A request of a generated client as Faultline sees requests: its context (method, route template, URL), and the
    /// `URLRequest` and `HTTPURLResponse` forms that authenticators, the classifier and the reporter take.
    struct OpenAPIExchange {
        let request: HTTPRequest
        let baseURL: URL
        let context: RequestContext

        /// The exchange of `request` to `baseURL` for the operation `operationID`, whose route template is
        /// `routes[operationID]`, else the operation id itself.
        init(_ request: HTTPRequest, baseURL: URL, operationID: String, routes: [String: String]) {
            self.request = request
            self.baseURL = baseURL
            let method = HTTPMethod(rawValue: request.method.rawValue)
            let base =
                baseURL.absoluteString.hasSuffix("/")
                ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
            let url = URL(string: base + (request.path ?? "")) ?? baseURL
            context = RequestContext(
                requestID: RandomID.make(), method: method, route: routes[operationID] ?? operationID, url: url,
                allowsRetry: method.isIdempotent)
        }

        /// The request as a `URLRequest` with the same URL, method and header fields (not the body, which the runtime
        /// streams).
        var urlRequest: URLRequest {
            var urlRequest = URLRequest(url: context.url)
            urlRequest.httpMethod = request.method.rawValue
            for field in request.headerFields {
                urlRequest.addValue(field.value, forHTTPHeaderField: field.name.canonicalName)
            }
            return urlRequest
        }

        /// `request` with the header fields `change` sets on its `URLRequest` form, such as an authenticator's
        /// `Authorization`.
        func request(changedBy change: (inout URLRequest) -> Void) -> HTTPRequest {
            var changed = urlRequest
            change(&changed)
            var result = request
            for (name, value) in changed.allHTTPHeaderFields ?? [:] {
                guard let fieldName = HTTPField.Name(name) else { continue }
                result.headerFields[fieldName] = value
            }
            return result
        }

        /// `response` as the classifier reads responses.
        func urlResponse(_ response: HTTPResponse) -> HTTPURLResponse? {
            var fields: [String: String] = [:]
            for field in response.headerFields { fields[field.name.canonicalName] = field.value }
            return HTTPURLResponse(
                url: context.url, statusCode: response.status.code, httpVersion: nil, headerFields: fields)
        }
    }
#endif
