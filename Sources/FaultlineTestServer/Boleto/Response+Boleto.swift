import Hummingbird

extension Response {
    /// The Boleto server's answer for `row`: its status (unless `status` overrides it) and an envelope carrying its
    /// code and message.
    static func boletoFailure(_ row: BoletoErrorCode, status: HTTPResponse.Status? = nil) throws -> Response {
        try json(BoletoEnvelope(failure: row), status: status ?? HTTPResponse.Status(code: row.httpStatus))
    }

    /// The Boleto server's success: `data` in an envelope.
    static func boletoSuccess(_ data: some Encodable & Sendable) throws -> Response {
        try json(BoletoEnvelope(data: data))
    }
}
