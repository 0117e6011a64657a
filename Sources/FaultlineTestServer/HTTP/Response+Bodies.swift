import Foundation
import Hummingbird

extension Response {
    /// A response carrying `body` as `contentType`; `Content-Length` is set from the body.
    static func bytes(
        _ body: ByteBuffer, contentType: String, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]
    ) -> Response {
        var headers = headers
        headers[.contentType] = contentType
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: body))
    }

    /// A response carrying `text` as UTF-8.
    static func text(
        _ text: String, contentType: String = ContentType.text, status: HTTPResponse.Status = .ok,
        headers: HTTPFields = [:]
    ) -> Response {
        bytes(ByteBuffer(string: text), contentType: contentType, status: status, headers: headers)
    }

    /// A response carrying `value` encoded as compact JSON: keys sorted so bodies are byte-for-byte reproducible,
    /// slashes unescaped, non-ASCII characters as UTF-8.
    static func json(
        _ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]
    ) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = ByteBuffer(bytes: try encoder.encode(value))
        return bytes(body, contentType: ContentType.json, status: status, headers: headers)
    }

    /// A response with no body: `Content-Length: 0` and no `Content-Type`.
    static func empty(status: HTTPResponse.Status, headers: HTTPFields = [:]) -> Response {
        Response(status: status, headers: headers, body: ResponseBody())
    }
}
