import Hummingbird

/// The bodies `/malformed/{kind}` sends: each one fails to match any error contract in its own way.
enum MalformedBody: String {
    /// No body at all, though it claims to be JSON.
    case empty
    /// A small HTML error page.
    case html
    /// Invalid UTF-8 (starting `FF FE 80 81 C3 28`) that claims to be JSON.
    case nonUTF8 = "non-utf8"
    /// An envelope cut off in the middle of a key: `{"success":false,"data":null,"error":{"code":50001,"mess`.
    case truncatedJSON = "truncated-json"
    /// Exactly 10 MiB (10_485_760 bytes) of HTML: 163_840 identical 64-byte `<p>` lines.
    case huge
    /// A valid envelope, error 50000, whose message is 10 MiB of `x`.
    case hugeJSON = "huge-json"

    private static let tenMebibytes = 10 * 1024 * 1024
    /// A byte-order mark, lone continuation bytes, and two-, three- and four-byte sequences broken by a `(`.
    private static let invalidUTF8: [UInt8] = [
        0xFF, 0xFE, 0x80, 0x81, 0xC3, 0x28, 0xA0, 0xA1, 0xE2, 0x28, 0xA1, 0xF0, 0x28, 0x8C, 0xBC,
    ]
    private static let hugePageLine = "<p>A deliberately huge error page: 163840 lines of 64 bytes</p>\n"

    /// The response sending this body with `status`.
    func response(status: HTTPResponse.Status) -> Response {
        switch self {
        case .empty:
            .bytes(ByteBuffer(), contentType: ContentType.json, status: status)
        case .html:
            .text(Self.htmlPage(status: status), contentType: ContentType.html, status: status)
        case .nonUTF8:
            .bytes(ByteBuffer(bytes: Self.invalidUTF8), contentType: ContentType.json, status: status)
        case .truncatedJSON:
            .text(
                #"{"success":false,"data":null,"error":{"code":50001,"mess"#, contentType: ContentType.json,
                status: status)
        case .huge:
            .bytes(Self.hugePage(), contentType: ContentType.html, status: status)
        case .hugeJSON:
            .bytes(Self.hugeEnvelope(), contentType: ContentType.json, status: status)
        }
    }

    private static func htmlPage(status: HTTPResponse.Status) -> String {
        """
        <!DOCTYPE html>
        <html><head><title>Error \(status.code)</title></head>
        <body><h1>Error \(status.code)</h1><p>Something went wrong.</p></body></html>

        """
    }

    private static func hugePage() -> ByteBuffer {
        let lineCount = tenMebibytes / hugePageLine.utf8.count
        var buffer = ByteBufferAllocator().buffer(capacity: tenMebibytes)
        for _ in 0..<lineCount { buffer.writeString(hugePageLine) }
        return buffer
    }

    private static func hugeEnvelope() -> ByteBuffer {
        let prefix = #"{"success":false,"data":null,"error":{"code":50000,"message":""#
        let suffix = #""}}"#
        var buffer = ByteBufferAllocator().buffer(capacity: prefix.utf8.count + tenMebibytes + suffix.utf8.count)
        buffer.writeString(prefix)
        buffer.writeRepeatingByte(UInt8(ascii: "x"), count: tenMebibytes)
        buffer.writeString(suffix)
        return buffer
    }
}

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
